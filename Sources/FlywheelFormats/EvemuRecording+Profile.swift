import FlywheelCore

extension EvemuRecording {
    /// An evemu recording with the device's description: name, USB ids and the capability bits of
    /// every event type and code it reports.
    public init(profile: DeviceProfile, events: [InputEvent]) {
        var codes: [UInt16: Set<UInt16>] = [:]
        for code in profile.buttons { codes[EventType.key, default: []].insert(code) }
        for event in events where event.type != EventType.syn { codes[event.type, default: []].insert(event.code) }
        // BUS_HOST for platform devices, BUS_USB for USB ones.
        self.init(describing: InputDeviceDescription(
            name: profile.name, bus: profile.usb == nil ? 0x19 : 0x03, vendor: profile.usb?.vendor ?? 0,
            product: profile.usb?.product ?? 0, version: 1, codes: codes))
        self.events = events
    }
}
