/// What a device backend makes of its input, one item at a time: the same items come from a live
/// device and from a replayed recording of it, because both go through the same interpreter.
public struct DeviceInput: Sendable, Hashable {
    /// What happened.
    public enum Action: Sendable, Hashable {
        /// The knob turned by some detents (fractions for partial detents).
        case knob(detents: Double)
        /// A touch surface (panel region, tablet ring or strip) moved by some detents under a finger.
        case touch(detents: Double)
        /// A finger touched a strip at `position` along it (0 at its start, 1 at its end); the strip
        /// spans `detents` detents, so `touch` motion moves the finger by detents / `detents`.
        case touchDown(position: Double, detents: Double)
        /// The finger lifted from the touch surface.
        case lift
        /// A button changed.
        case button(code: UInt16, pressed: Bool)
        /// A spring-loaded shuttle ring is at `position` (−7…+7, 0 = centre).
        case shuttle(position: Int)
        /// Input was lost (a kernel buffer overflowed); counting resumes from the device's state
        /// after the gap, never with a jump.
        case gap(reason: String)
    }

    /// When it happened, on the monotonic clock (the event's kernel timestamp).
    public var timeNanoseconds: Nanoseconds
    /// What happened.
    public var action: Action

    /// Creates an item.
    public init(_ action: Action, at timeNanoseconds: Nanoseconds) {
        self.timeNanoseconds = timeNanoseconds
        self.action = action
    }

    /// The item as one JSON object (`flywheel decode --inputs`, golden files).
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("t", .number(timeNanoseconds.secondsText))]
        switch action {
        case .knob(let detents): fields += [("input", .string("knob")), ("detents", .double(Self.rounded(detents)))]
        case .touch(let detents): fields += [("input", .string("touch")), ("detents", .double(Self.rounded(detents)))]
        case .touchDown(let position, let detents):
            fields += [("input", .string("touch-down")), ("position", .double(Self.rounded(position))), ("detents", .double(Self.rounded(detents)))]
        case .lift: fields += [("input", .string("lift"))]
        case .button(let code, let pressed): fields += [("input", .string("button")), ("code", .int(Int(code))), ("pressed", .bool(pressed))]
        case .shuttle(let position): fields += [("input", .string("shuttle")), ("position", .int(position))]
        case .gap(let reason): fields += [("input", .string("gap")), ("reason", .string(reason))]
        }
        return .object(fields)
    }

    /// Six decimals: enough for a partial detent, stable across platforms' last-digit noise.
    static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
