/// What an evdev device says about itself: its name, ids, the event codes it can send and the
/// ranges of its absolute axes. The live backend reads it through libevdev; a recording carries it
/// in its header.
public struct InputDeviceDescription: Sendable, Hashable {
    /// The device's name (`EVIOCGNAME`).
    public var name: String
    /// Bus type, vendor, product and version (`EVIOCGID`).
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// The codes the device can send, per event type.
    public var codes: [UInt16: Set<UInt16>]
    /// Minimum and maximum of each absolute axis.
    public var absoluteRanges: [UInt16: ClosedRange<Int32>]

    /// Creates a description.
    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        codes: [UInt16: Set<UInt16>] = [:], absoluteRanges: [UInt16: ClosedRange<Int32>] = [:]
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.codes = codes
        self.absoluteRanges = absoluteRanges
    }

    /// Whether the device can send `code` of event `type`.
    public func has(_ type: UInt16, _ code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }

    /// The key and button codes it can send, in order.
    public var keys: [UInt16] { (codes[EventType.key] ?? []).sorted() }

    /// `vvvv:pppp`, as lsusb prints it.
    public var usbID: String {
        func hex4(_ value: UInt16) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        return hex4(vendor) + ":" + hex4(product)
    }
}
