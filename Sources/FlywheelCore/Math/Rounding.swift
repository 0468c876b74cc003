extension Elementary {
    /// Below this magnitude a Double's integer part fits an Int exactly and its fraction is exact.
    static let exactIntegerBound = 4_503_599_627_370_496.0  // 2⁵²

    /// `Int(x.rounded())` (half away from zero), from the integer part and the fraction: on x86-64
    /// without SSE 4.1, `rounded()` is a call into the C library.
    @inline(__always)
    static func nearestInteger(_ x: Double) -> Int {
        guard abs(x) < exactIntegerBound else { return Int(x.rounded()) }
        let whole = Int(x)  // toward zero
        let fraction = x - Double(whole)  // exact
        return fraction >= 0.5 ? whole &+ 1 : fraction <= -0.5 ? whole &- 1 : whole
    }

    /// `Int(x.rounded(.up))`, as ``nearestInteger(_:)``.
    @inline(__always)
    static func ceilingInteger(_ x: Double) -> Int {
        guard abs(x) < exactIntegerBound else { return Int(x.rounded(.up)) }
        let whole = Int(x)
        return Double(whole) < x ? whole &+ 1 : whole
    }

    /// `Int(x.rounded(.down))`, as ``nearestInteger(_:)``.
    @inline(__always)
    static func floorInteger(_ x: Double) -> Int {
        guard abs(x) < exactIntegerBound else { return Int(x.rounded(.down)) }
        let whole = Int(x)
        return Double(whole) > x ? whole &- 1 : whole
    }
}
