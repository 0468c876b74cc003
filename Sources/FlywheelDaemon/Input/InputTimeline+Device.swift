import FlywheelCore

extension InputTimeline {
    /// The device that plays this timeline from `path`, as `configuration` describes its profile
    /// (name, route, buttons, knob options), so flywheeld and `flywheel replay` treat it alike.
    public func device(path: String, configuration: FlywheelConfiguration) -> InputDevice {
        let entry = profileID.flatMap { configuration.device(profile: $0) }
        return InputDevice(
            name: entry?.name ?? deviceName, path: path, kind: playbackKind, profile: profileID, route: entry?.route ?? .followMode,
            buttonActions: entry?.buttonActions ?? [:], buttonGestures: entry?.buttonGestures ?? [:],
            knobOptions: entry?.knobOptions ?? KnobOptions())
    }
}
