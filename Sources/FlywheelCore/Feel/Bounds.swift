/// What happens at the ends of a control's range.
public enum Bounds: Sendable, Hashable {
    /// No ends.
    case unbounded
    /// Stops at the ends, with rubber-band overscroll while pulled past one and a spring back.
    case clamp(ClosedRange<Int>)
    /// A circular list of `count` detents (positions wrap modulo count).
    case wrap(count: Int)
    /// Stops dead at the ends: no overscroll, and the hand is held at the end, so turning back
    /// moves at once.
    case stop(ClosedRange<Int>)

    /// Clamps a detent into the range (wrapping lists are not clamped).
    public func clamp(_ detent: Int) -> Int {
        switch self {
        case .clamp(let range), .stop(let range): return min(max(detent, range.lowerBound), range.upperBound)
        case .unbounded, .wrap: return detent
        }
    }

    /// Where the hand is held: at a dead stop's end when turned past it; anywhere otherwise.
    package func held(_ raw: Double) -> Double {
        guard case .stop(let range) = self else { return raw }
        return min(max(raw, Double(range.lowerBound)), Double(range.upperBound))
    }

    /// The value a detent stands for in a wrapping list: detent modulo count, in 0..<count.
    package func wrapped(_ detent: Int) -> Int {
        if case .wrap(let count) = self, count > 0 { return ((detent % count) + count) % count }
        return detent
    }

    /// The displayed position for a raw (hand) position: inside the range unchanged; past an end,
    /// the end plus the rubber-band offset of the pull, with `dimension` detents of give.
    package func displayed(_ raw: Double, dimension: Double = 2) -> Double {
        guard case .clamp(let range) = self else { return raw }
        let low = Double(range.lowerBound), high = Double(range.upperBound)
        if raw > high { return high + RubberBand.offset(pull: raw - high, dimension: dimension) }
        if raw < low { return low - RubberBand.offset(pull: low - raw, dimension: dimension) }
        return raw
    }

    /// The displayed velocity for a raw velocity at a raw position: the band's slope past an end
    /// (0.55 at the end, less the further it is pulled), unchanged inside the range.
    package func displayedVelocity(_ velocity: Double, at raw: Double, dimension: Double = 2) -> Double {
        guard case .clamp(let range) = self else { return velocity }
        let low = Double(range.lowerBound), high = Double(range.upperBound)
        if raw > high { return velocity * RubberBand.slope(pull: raw - high, dimension: dimension) }
        if raw < low { return velocity * RubberBand.slope(pull: low - raw, dimension: dimension) }
        return velocity
    }

    /// Closer to an end than this (a hundredth of a detent: a fraction of a degree on a knob, a
    /// hundredth of a BPM) a motion coming back to it is on it: it stops there.
    package static let wallThreshold = 0.01

    /// When a motion lands on `target` at an end of the range, the end is a wall: the motion stops
    /// the first time it comes back to the end from outside the range (it never shows a value
    /// inside the range that it will not rest on). The direction of that return: −1 at the upper
    /// end, +1 at the lower, 0 for a range of one detent (either way); nil when `target` is no end.
    /// At a dead stop's end the wall stops the motion whichever way it reaches it.
    package func wallDirection(at target: Int) -> Double? {
        if case .stop(let range) = self { return range.contains(target) && (target == range.lowerBound || target == range.upperBound) ? 0 : nil }
        guard case .clamp(let range) = self else { return nil }
        switch (target == range.lowerBound, target == range.upperBound) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): return nil
        }
    }
}

/// UIScrollView's rubber band: a pull x past an end shows as d·(1 − 1/(x·0.55/d + 1)), which
/// follows the finger at first (slope 0.55) and never exceeds d.
public enum RubberBand {
    /// The offset shown for a pull `pull` (≥ 0) with dimension `dimension`.
    public static func offset(pull: Double, dimension: Double) -> Double {
        guard pull > 0, dimension > 0 else { return 0 }
        return dimension * (1 - 1 / (pull * 0.55 / dimension + 1))
    }

    /// How fast the shown offset moves per detent of pull at `pull`: 0.55/(x·0.55/d + 1)².
    package static func slope(pull: Double, dimension: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let stretch = max(0, pull) * 0.55 / dimension + 1
        return 0.55 / (stretch * stretch)
    }
}
