import FlywheelCore

extension MechanicsSettings {
    /// A flick's coast in closed form: under v = V·e^(−friction·t) the knob slows to the stop
    /// velocity after ln(|V|/stop)/friction seconds, having moved (|V| − stop)/friction detents;
    /// nothing when |V| is already at or below the stop velocity.
    func coast(velocity: Double) -> (seconds: Double, detents: Double) {
        let speed = abs(velocity)
        guard speed > stopVelocity else { return (0, 0) }
        return (Elementary.log(speed / stopVelocity) / friction, (speed - stopVelocity) / friction)
    }

    /// The longest the detent spring takes to pull a knob onto the nearest detent (half a detent away).
    var longestSnapSeconds: Double { 0.5 / snapSpeed }
}

extension Gesture {
    /// How long the gesture lasts at most, for the scenario's length limit: holds and jitter as
    /// given, a turn its detents at its speed, a wiggle there and back with its pause, a press or
    /// a release its travel, and a flick its coast (closed form) and the detent spring's pull.
    func plannedNanoseconds(_ mechanics: MechanicsSettings) -> Nanoseconds {
        func nanoseconds(_ seconds: Double) -> Nanoseconds { Nanoseconds(min((seconds * 1e9).rounded(.up), 1e18)) }
        switch self {
        case .hold(let duration), .jitter(_, let duration): return duration
        case .turn(let detents, let speed): return nanoseconds(Double(abs(detents)) / speed)
        case .wiggle(let fraction, let speed):
            return nanoseconds(2 * abs(fraction) / speed) + mechanics.wigglePauseNanoseconds
        case .flick(let velocity):
            return nanoseconds(mechanics.coast(velocity: velocity).seconds + mechanics.longestSnapSeconds)
        case .press, .release: return mechanics.buttonTravelNanoseconds
        }
    }

    /// How far the knob moves at most, in detents (out and back both count), for the scenario's
    /// travel limit.
    func travelDetents(_ mechanics: MechanicsSettings) -> Double {
        switch self {
        case .turn(let detents, _): return Double(abs(detents))
        case .flick(let velocity): return mechanics.coast(velocity: velocity).detents + 0.5
        case .wiggle(let fraction, _): return 2 * abs(fraction)
        case .jitter(let amplitude, let duration):
            return Double(jitterStretches(duration, mechanics)) * 2 * amplitude
        case .hold, .press, .release: return 0
        }
    }

    /// The most intended contact changes (quarter steps crossed, with `steps` per detent) and
    /// button actions the gesture makes: each gets its bounce on top.
    func contactChanges(stepsPerDetent steps: Int, _ mechanics: MechanicsSettings) -> Int {
        /// A monotone move of `detents` crosses at most ⌊detents·steps⌋ + 1 quarter-step boundaries.
        func crossings(_ detents: Double) -> Int { Int(min(detents * Double(steps), 1e15)) + 1 }
        switch self {
        case .turn(let detents, _): return abs(detents) * steps
        case .flick(let velocity): return crossings(mechanics.coast(velocity: velocity).detents) + crossings(0.5)
        case .wiggle(let fraction, _): return 2 * crossings(abs(fraction))
        case .jitter(let amplitude, let duration):
            return jitterStretches(duration, mechanics) * crossings(2 * amplitude)
        case .hold: return 0
        case .press, .release: return 1
        }
    }

    /// The most stretches a jitter of `duration` is made of (each lasts at least the shortest stretch).
    private func jitterStretches(_ duration: Nanoseconds, _ mechanics: MechanicsSettings) -> Int {
        Int(duration / max(1, mechanics.jitterStretchNanoseconds.lowerBound)) + 2
    }
}
