import FlywheelCore

extension Gesture {
    /// How long the hand is busy with the gesture, for the scenario's length limit: holds and
    /// jitter as given, a turn its detents at its speed, a wiggle there and back; a flick is the
    /// hand letting go (the coast that follows is bounded by the friction's lower limit).
    var plannedNanoseconds: Nanoseconds {
        switch self {
        case .hold(let duration), .jitter(_, let duration): return duration
        case .turn(let detents, let speed): return Nanoseconds(min(Double(abs(detents)) / speed * 1e9, 1e18))
        case .wiggle(let fraction, let speed): return Nanoseconds(min(2 * abs(fraction) / speed * 1e9, 1e18))
        case .flick, .press, .release: return 0
        }
    }
}
