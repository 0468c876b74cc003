import FlywheelCore

/// One monotone piece of the knob's motion, with its angle (in detents) as a closed-form
/// function of time, so the time it reaches any angle is found by inverting that function
/// rather than by stepping time forward.
public enum MotionSegment: Hashable, Sendable {
    /// Constant speed from `from` to `to` between `start` and `end`: θ(t) = from + (to − from)·(t − start)/(end − start).
    case linear(start: Nanoseconds, end: Nanoseconds, from: Double, to: Double)
    /// Coasting under exponential friction from `from` at `velocity` detents/s:
    /// θ(τ) = from + (velocity / friction)·(1 − e^(−friction·τ)), τ = t − start in seconds, until `end`.
    case decay(start: Nanoseconds, end: Nanoseconds, from: Double, velocity: Double, friction: Double)

    /// When the segment starts.
    public var start: Nanoseconds {
        switch self {
        case .linear(let start, _, _, _), .decay(let start, _, _, _, _): return start
        }
    }

    /// When the segment ends.
    public var end: Nanoseconds {
        switch self {
        case .linear(_, let end, _, _), .decay(_, let end, _, _, _): return end
        }
    }

    /// The angle at the start, in detents.
    public var startAngle: Double {
        switch self {
        case .linear(_, _, let from, _), .decay(_, _, let from, _, _): return from
        }
    }

    /// The angle at the end, in detents.
    public var endAngle: Double { angle(at: end) }

    /// The angle at time `t` (clamped to the segment), in detents.
    public func angle(at t: Nanoseconds) -> Double {
        let t = min(max(t, start), end)
        switch self {
        case .linear(let start, let end, let from, let to):
            if t == end { return to }
            return from + (to - from) * Double(t - start) / Double(end - start)
        case .decay(let start, _, let from, let velocity, let friction):
            let tau = Double(t - start) / 1e9
            return from + velocity / friction * (1 - Elementary.exp(-friction * tau))
        }
    }

    /// The velocity at time `t`, in detents per second.
    public func velocity(at t: Nanoseconds) -> Double {
        switch self {
        case .linear(let start, let end, let from, let to):
            return (to - from) / (Double(end - start) / 1e9)
        case .decay(let start, _, _, let velocity, let friction):
            let tau = Double(min(max(t, start), end) - start) / 1e9
            return velocity * Elementary.exp(-friction * tau)
        }
    }

    /// The first time the segment reaches `angle`, which must lie between its start and end
    /// angles: the linear form inverts directly, the exponential one through a logarithm:
    /// τ = −ln(1 − friction·(angle − from)/velocity) / friction. Rounded to the nearest
    /// nanosecond and clamped to the segment.
    public func time(atAngle angle: Double) -> Nanoseconds {
        let seconds: Double
        switch self {
        case .linear(let start, let end, let from, let to):
            guard to != from else { return start }
            seconds = (angle - from) / (to - from) * (Double(end - start) / 1e9)
        case .decay(_, _, let from, let velocity, let friction):
            let fraction = 1 - friction * (angle - from) / velocity
            guard fraction > 0 else { return end }
            seconds = -Elementary.log(fraction) / friction
        }
        guard seconds.isFinite else { return end }
        let offset = Nanoseconds((seconds * 1e9).rounded())
        return min(max(start + offset, start), end)
    }
}
