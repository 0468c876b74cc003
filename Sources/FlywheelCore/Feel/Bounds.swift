/// What happens at the ends of a control's range.
public enum Bounds: Sendable, Hashable {
    /// No ends.
    case unbounded
    /// Stops at the ends, with rubber-band overscroll while pulled past one and a spring back.
    case clamp(ClosedRange<Int>)
    /// A circular list of `count` detents (positions wrap modulo count).
    case wrap(count: Int)

    /// Clamps a detent into the range (wrapping lists are not clamped).
    public func clamp(_ detent: Int) -> Int {
        if case .clamp(let range) = self { return min(max(detent, range.lowerBound), range.upperBound) }
        return detent
    }

    /// The value a detent stands for in a wrapping list: detent modulo count, in 0..<count.
    public func wrapped(_ detent: Int) -> Int {
        if case .wrap(let count) = self, count > 0 { return ((detent % count) + count) % count }
        return detent
    }

    /// The displayed position for a raw (hand) position: inside the range unchanged; past an end,
    /// the end plus the rubber-band offset of the pull, with `dimension` detents of give.
    public func displayed(_ raw: Double, dimension: Double = 2) -> Double {
        guard case .clamp(let range) = self else { return raw }
        let low = Double(range.lowerBound), high = Double(range.upperBound)
        if raw > high { return high + RubberBand.offset(pull: raw - high, dimension: dimension) }
        if raw < low { return low - RubberBand.offset(pull: low - raw, dimension: dimension) }
        return raw
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
}
