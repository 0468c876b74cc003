import FlywheelCore

/// One command of a hand-motion script. Angles are in detents; the knob rests on a detent
/// before and after every gesture.
public enum Gesture: Hashable, Sendable, CustomStringConvertible {
    /// Turn `detents` (signed, non-zero) at `speed` detents per second.
    case turn(detents: Int, speed: Double)
    /// Let go at `velocity` detents per second (signed): the knob coasts under exponential
    /// friction, then the detent spring pulls it to the nearest detent.
    case flick(velocity: Double)
    /// Keep still.
    case hold(nanoseconds: Nanoseconds)
    /// Go `fraction` of a detent (signed, 0 < |fraction| < ½) into a step and come back, at
    /// `speed` detents per second: no detent is completed.
    case wiggle(fraction: Double, speed: Double)
    /// Small random motion within ±`amplitude` detents (0 < amplitude < ½) of the current detent
    /// for a while, ending back on it.
    case jitter(amplitude: Double, nanoseconds: Nanoseconds)
    /// Press a button (nil: the profile's first button).
    case press(button: UInt16?)
    /// Release a button (nil: the profile's first button).
    case release(button: UInt16?)

    /// The gesture as a scenario line, such as `turn +5 at 10/s`.
    public var description: String {
        switch self {
        case .turn(let detents, let speed):
            return "turn \(detents > 0 ? "+" : "")\(detents) at \(DecimalText.format(speed))/s"
        case .flick(let velocity):
            return "flick \(velocity >= 0 ? "+" : "")\(DecimalText.format(velocity))/s"
        case .hold(let duration):
            return "hold \(ValueText.durationText(duration))"
        case .wiggle(let fraction, let speed):
            return "wiggle \(DecimalText.format(fraction)) at \(DecimalText.format(speed))/s"
        case .jitter(let amplitude, let duration):
            return "jitter \(DecimalText.format(amplitude)) for \(ValueText.durationText(duration))"
        case .press(let button):
            return button.map { "press \(EvdevNames.keyName($0))" } ?? "press"
        case .release(let button):
            return button.map { "release \(EvdevNames.keyName($0))" } ?? "release"
        }
    }
}

/// What one gesture did when it was simulated.
public struct GestureRecord: Hashable, Sendable {
    /// The gesture.
    public var gesture: Gesture
    /// The scenario line it came from (0 when generated).
    public var line: Int
    /// When it started and ended, in nanoseconds.
    public var startNanoseconds: Nanoseconds
    /// When it ended (the knob is back at rest on a detent).
    public var endNanoseconds: Nanoseconds
    /// The detent it started on.
    public var fromDetent: Int
    /// The detent it came to rest on; `toDetent − fromDetent` is its part of the ground truth.
    public var toDetent: Int

    /// Net detents this gesture moved.
    public var detents: Int { toDetent - fromDetent }
}

/// Decimal formatting without exponents, for scenario text.
enum DecimalText {
    /// `value` with at most six decimals, trailing zeros removed (`0.4`, `12`, `-3.25`).
    static func format(_ value: Double) -> String {
        let micros = (value * 1_000_000).rounded()
        guard micros.isFinite, abs(micros) < 9e15 else { return "\(value)" }
        let total = Int64(micros)
        let sign = total < 0 ? "-" : ""
        let magnitude = total.magnitude
        let whole = magnitude / 1_000_000
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
