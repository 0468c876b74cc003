/// One Linux input event as evdev reports it (`struct input_event`), with its kernel timestamp.
///
/// The core keeps its own copy of the few event codes Flywheel uses so that it stays free of
/// C headers; the I/O layer checks them against `<linux/input-event-codes.h>` in its tests.
public struct InputEvent: Hashable, Sendable {
    /// Kernel timestamp in nanoseconds (microsecond resolution from evdev).
    public var timeNanoseconds: Nanoseconds
    /// Event type (`EV_*`).
    public var type: UInt16
    /// Event code (`REL_*`, `ABS_*`, `KEY_*`/`BTN_*`, `SYN_*`, `MSC_*`).
    public var code: UInt16
    /// Event value.
    public var value: Int32

    /// Creates an event.
    public init(timeNanoseconds: Nanoseconds, type: UInt16, code: UInt16, value: Int32) {
        self.timeNanoseconds = timeNanoseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// A `SYN_REPORT` closing a frame at `timeNanoseconds`.
    public static func synReport(at timeNanoseconds: Nanoseconds) -> InputEvent {
        InputEvent(timeNanoseconds: timeNanoseconds, type: EventType.syn, code: SynCode.report, value: 0)
    }
}

/// `EV_*` event types.
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
}

/// `SYN_*` codes.
public enum SynCode {
    public static let report: UInt16 = 0
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

/// `REL_*` codes.
public enum RelCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let hwheel: UInt16 = 0x06
    public static let dial: UInt16 = 0x07
    public static let wheel: UInt16 = 0x08
    public static let wheelHiRes: UInt16 = 0x0b
    public static let hwheelHiRes: UInt16 = 0x0c
}

/// `ABS_*` codes.
public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let rx: UInt16 = 0x03
    public static let throttle: UInt16 = 0x06
    public static let wheel: UInt16 = 0x08
    public static let misc: UInt16 = 0x28
    public static let mtSlot: UInt16 = 0x2f
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtTrackingID: UInt16 = 0x39
}

/// `KEY_*` / `BTN_*` codes.
public enum KeyCode {
    public static let btn0: UInt16 = 0x100
    public static let btn4: UInt16 = 0x104
    public static let btn5: UInt16 = 0x105
    package static let btn6: UInt16 = 0x106
    package static let btn7: UInt16 = 0x107
    public static let btn8: UInt16 = 0x108
    public static let btnTouch: UInt16 = 0x14a

    /// A button named as BTN_0…BTN_9 or a decimal key code below 0x300 (such as "260"); nil otherwise.
    public static func button(named name: String) -> UInt16? {
        if name.hasPrefix("BTN_"), let digit = UInt16(name.dropFirst(4)), digit <= 9 { return btn0 + digit }
        if let number = UInt16(name), number > 0, number < 0x300 { return number }
        return nil
    }
}

/// `MSC_*` codes.
public enum MscCode {
    public static let pulseLED: UInt16 = 0x01
}
