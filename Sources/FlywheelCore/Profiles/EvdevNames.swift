
/// An evdev axis: its event type (`EV_REL` or `EV_ABS`), code and name.
public struct EvdevAxis: Hashable, Sendable, CustomStringConvertible {
    /// `EventType.rel` or `EventType.abs`.
    public var type: UInt16
    /// The `REL_*` or `ABS_*` code.
    public var code: UInt16
    /// The name from `<linux/input-event-codes.h>`, such as `REL_DIAL`.
    public var name: String

    /// Creates an axis.
    public init(type: UInt16, code: UInt16, name: String) {
        self.type = type
        self.code = code
        self.name = name
    }

    /// The name, such as `REL_DIAL`.
    public var description: String { name }

    /// Whether this is a relative axis.
    public var isRelative: Bool { type == EventType.rel }
}

/// The evdev names the profile and scenario formats accept, with their values from
/// `<linux/input-event-codes.h>`. A small table on purpose: the simulator only needs the
/// rotary axes and buttons of the devices it models.
public enum EvdevNames {
    /// Relative axes by name.
    package static let relativeAxes: [String: UInt16] = [
        "REL_X": 0x00, "REL_Y": 0x01, "REL_Z": 0x02, "REL_RX": 0x03, "REL_RY": 0x04, "REL_RZ": 0x05,
        "REL_HWHEEL": RelCode.hwheel, "REL_DIAL": RelCode.dial, "REL_WHEEL": RelCode.wheel, "REL_MISC": 0x09,
    ]

    /// Absolute axes by name.
    public static let absoluteAxes: [String: UInt16] = [
        "ABS_X": AbsCode.x, "ABS_Y": AbsCode.y, "ABS_Z": 0x02, "ABS_RX": AbsCode.rx, "ABS_RY": 0x04,
        "ABS_RZ": 0x05, "ABS_THROTTLE": AbsCode.throttle, "ABS_RUDDER": 0x07, "ABS_WHEEL": AbsCode.wheel,
        "ABS_MISC": AbsCode.misc,
    ]

    /// Keys and buttons by name.
    public static let keys: [String: UInt16] = {
        var table: [String: UInt16] = [
            "BTN_LEFT": 0x110, "BTN_RIGHT": 0x111, "BTN_MIDDLE": 0x112, "BTN_SIDE": 0x113, "BTN_EXTRA": 0x114,
            "KEY_ENTER": 28, "KEY_SPACE": 57, "KEY_MUTE": 113, "KEY_PLAYPAUSE": 164, "KEY_SELECT": 0x161,
        ]
        for n in 0...9 { table["BTN_\(n)"] = KeyCode.btn0 + UInt16(n) }
        return table
    }()

    /// The axis for a name such as `REL_DIAL` or `ABS_X`, or nil.
    public static func axis(named name: String) -> EvdevAxis? {
        if let code = relativeAxes[name] { return EvdevAxis(type: EventType.rel, code: code, name: name) }
        if let code = absoluteAxes[name] { return EvdevAxis(type: EventType.abs, code: code, name: name) }
        return nil
    }

    /// The code of a key name such as `BTN_0`, or of a number (`0x100`, `256`), or nil.
    public static func key(named name: String) -> UInt16? {
        if let code = keys[name] { return code }
        if let value = ValueText.unsigned(name), value <= 0x2ff { return UInt16(value) }
        return nil
    }

    /// The name of a key code, or its hex value when it has none in the table.
    public static func keyName(_ code: UInt16) -> String {
        if let entry = keys.first(where: { $0.value == code }) { return entry.key }
        return "0x" + String(code, radix: 16)
    }
}
