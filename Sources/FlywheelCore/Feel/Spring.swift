/// A damped spring's parameters, as SwiftUI's spring: a response (the undamped period) and a
/// damping ratio ζ. Stiffness is (2π/response)², mass 1.
///
/// The first overshoot past the target for a step from rest is e^(−πζ/√(1−ζ²)) of the step:
/// - ζ = 0.35 (the default; Castro's UISnapBehavior damping): 30.9 %;
/// - ζ = 0.6 (`snappy`): 9.5 %;
/// - ζ = 1.0 (`critical`): none.
public struct SpringParameters: Sendable, Hashable {
    /// Undamped period in seconds (default 0.3 s).
    public var responseSeconds: Double
    /// Damping ratio ζ (default 0.35).
    public var damping: Double

    /// Creates parameters.
    public init(responseSeconds: Double = 0.3, damping: Double = 0.35) {
        self.responseSeconds = responseSeconds
        self.damping = damping
    }

    /// Accepted by configuration: response 0.05 … 2 s, damping 0.1 … 2.
    public static let acceptedResponse: ClosedRange<Double> = 0.05...2
    public static let acceptedDamping: ClosedRange<Double> = 0.1...2

    /// The default: response 0.3 s, ζ = 0.35.
    public static let standard = SpringParameters()
    /// ζ = 0.6.
    package static let snappy = SpringParameters(damping: 0.6)
    /// ζ = 1: no overshoot.
    package static let critical = SpringParameters(damping: 1)

    /// A preset by name: `standard`, `snappy`, `critical`.
    public static func preset(_ name: String) -> SpringParameters? {
        switch name {
        case "standard": return .standard
        case "snappy": return .snappy
        case "critical": return .critical
        default: return nil
        }
    }

    /// Natural angular frequency ω = 2π/response.
    package var angularFrequency: Double { 2 * .pi / responseSeconds }

    /// The first overshoot for a unit step from rest (0 when ζ ≥ 1).
    package var overshoot: Double {
        damping >= 1 ? 0 : Elementary.exp(-.pi * damping / (1 - damping * damping).squareRoot())
    }
}

/// A damped harmonic oscillator towards `target` in closed form, for any damping.
///
/// With displacement y = x − target: y'' + 2ζω y' + ω² y = 0.
public struct SpringMotion: Sendable, Hashable {
    /// The rest position, in detents.
    public let target: Double
    /// Displacement from the target at t = 0.
    package let displacement: Double
    /// Velocity at t = 0, in detents per second.
    public let velocity: Double
    /// The parameters.
    package let parameters: SpringParameters

    enum Regime: Hashable {
        /// y = e^(−a t)(y0 cos wt + b sin wt)
        case under(a: Double, w: Double, b: Double)
        /// y = (y0 + c t) e^(−ω t)
        case critical(omega: Double, c: Double)
        /// y = c1 e^(r1 t) + c2 e^(r2 t)
        case over(r1: Double, r2: Double, c1: Double, c2: Double)
    }

    let regime: Regime

    /// Creates the motion from a position and a velocity.
    public init(from position: Double, velocity: Double, to target: Double, parameters: SpringParameters) {
        self.target = target
        self.displacement = position - target
        self.velocity = velocity
        self.parameters = parameters
        let omega = parameters.angularFrequency, zeta = parameters.damping
        let y0 = position - target
        if abs(zeta - 1) < 1e-9 {
            regime = .critical(omega: omega, c: velocity + omega * y0)
        } else if zeta < 1 {
            let a = zeta * omega, w = omega * (1 - zeta * zeta).squareRoot()
            regime = .under(a: a, w: w, b: (velocity + a * y0) / w)
        } else {
            let root = omega * (zeta * zeta - 1).squareRoot()
            let r1 = -zeta * omega + root, r2 = -zeta * omega - root
            let c1 = (velocity - r2 * y0) / (r1 - r2)
            regime = .over(r1: r1, r2: r2, c1: c1, c2: y0 - c1)
        }
    }

    /// Position `seconds` after the start.
    public func position(after seconds: Double) -> Double { target + displacement(after: seconds) }

    /// Displacement from the target `seconds` after the start.
    package func displacement(after t: Double) -> Double {
        switch regime {
        case .under(let a, let w, let b):
            return Elementary.exp(-a * t) * (displacement * Elementary.cos(w * t) + b * Elementary.sin(w * t))
        case .critical(let omega, let c):
            return (displacement + c * t) * Elementary.exp(-omega * t)
        case .over(let r1, let r2, let c1, let c2):
            return c1 * Elementary.exp(r1 * t) + c2 * Elementary.exp(r2 * t)
        }
    }

    /// Velocity `seconds` after the start.
    public func velocity(after t: Double) -> Double {
        switch regime {
        case .under(let a, let w, let b):
            let e = Elementary.exp(-a * t), c = Elementary.cos(w * t), s = Elementary.sin(w * t)
            return e * (velocity * c - (a * b + w * displacement) * s)
        case .critical(let omega, let c):
            return (c - omega * (displacement + c * t)) * Elementary.exp(-omega * t)
        case .over(let r1, let r2, let c1, let c2):
            return c1 * r1 * Elementary.exp(r1 * t) + c2 * r2 * Elementary.exp(r2 * t)
        }
    }

    /// Times after the start at which the velocity is zero (the turning points), in order, up to
    /// `limit` seconds: between two of them the position is monotone.
    package func turningPoints(before limit: Double) -> [Double] {
        switch regime {
        case .under(let a, let w, let b):
            // v = e^(−at)(v0 cos wt − (ab + w y0) sin wt) = 0 ⇔ tan wt = v0 / (ab + w y0).
            let p = velocity, q = a * b + w * displacement
            if p == 0 && q == 0 { return [] }
            var phase = Elementary.atan2(p, q)  // wt ≡ phase (mod π)
            if phase < 0 { phase += .pi }
            if phase == 0 && p == 0 { phase = .pi }  // t = 0 itself is the start, not a turning point ahead
            var times: [Double] = []
            var t = phase / w
            while t < limit {
                if t > 0 { times.append(t) }
                t += .pi / w
            }
            return times
        case .critical(let omega, let c):
            // v = 0 ⇔ c − ω(y0 + c t) = 0 ⇔ t = (c − ω y0)/(ω c).
            guard c != 0 else { return [] }
            let t = (c - omega * displacement) / (omega * c)
            return t > 0 && t < limit ? [t] : []
        case .over(let r1, let r2, let c1, let c2):
            // c1 r1 e^(r1 t) = −c2 r2 e^(r2 t) ⇔ t = ln(−c2 r2 / (c1 r1)) / (r1 − r2).
            let ratio = -c2 * r2 / (c1 * r1)
            guard c1 != 0, ratio > 0 else { return [] }
            let t = Elementary.log(ratio) / (r1 - r2)
            return t > 0 && t < limit ? [t] : []
        }
    }

    /// Displacement and velocity tolerances for "settled" (1e-3 detent, 1e-2 detent/s).
    package static let positionTolerance = 1e-3
    package static let velocityTolerance = 1e-2

    /// A time after which |x − target| ≤ 1e-3 and |v| ≤ 1e-2 for ever: a guarantee from a
    /// decreasing envelope of each, not an estimate.
    package var settleSeconds: Double {
        switch regime {
        case .under(let a, let w, let b):
            // |y| ≤ √(y0² + b²)·e^(−at); |v| ≤ √(v0² + (ab + w y0)²)·e^(−at): both decreasing.
            let amplitude = (displacement * displacement + b * b).squareRoot()
            let q = a * b + w * displacement
            let speed = (velocity * velocity + q * q).squareRoot()
            return max(
                Self.decay(amplitude: amplitude, rate: a, tolerance: Self.positionTolerance),
                Self.decay(amplitude: speed, rate: a, tolerance: Self.velocityTolerance))
        case .critical(let omega, let c):
            // |y| ≤ (|y0| + |c| t) e^(−ωt), decreasing for t ≥ 1/ω − |y0|/|c|;
            // |v| ≤ (|c − ω y0| + ω|c| t) e^(−ωt), decreasing for t ≥ 1/ω − |c − ω y0|/(ω|c|).
            let p = abs(displacement), q = abs(c), r = abs(c - omega * displacement)
            let startY = q > 0 ? max(0, 1 / omega - p / q) : 0
            let startV = q > 0 ? max(0, 1 / omega - r / (omega * q)) : 0
            return max(
                Self.solve({ (p + q * $0) * Elementary.exp(-omega * $0) }, tolerance: Self.positionTolerance, decreasingFrom: startY),
                Self.solve({ (r + omega * q * $0) * Elementary.exp(-omega * $0) }, tolerance: Self.velocityTolerance, decreasingFrom: startV))
        case .over(let r1, let r2, let c1, let c2):
            // Sums of decaying exponentials with positive weights: decreasing everywhere.
            return max(
                Self.solve({ abs(c1) * Elementary.exp(r1 * $0) + abs(c2) * Elementary.exp(r2 * $0) },
                      tolerance: Self.positionTolerance, decreasingFrom: 0),
                Self.solve({ abs(c1 * r1) * Elementary.exp(r1 * $0) + abs(c2 * r2) * Elementary.exp(r2 * $0) },
                      tolerance: Self.velocityTolerance, decreasingFrom: 0))
        }
    }

    /// Where `amplitude`·e^(−`rate`·t) meets `tolerance`, worked out once: t* = ln(amplitude /
    /// tolerance) / rate, for ``solve(_:tolerance:decreasingFrom:crossing:)`` to decide most of
    /// its steps by (nil when there is no such finite time).
    static func crossing(amplitude: Double, rate: Double, tolerance: Double) -> (rate: Double, seconds: Double)? {
        guard rate > 0, amplitude > 0, amplitude.isFinite else { return nil }
        let seconds = Elementary.log(amplitude / tolerance) / rate
        return seconds.isFinite ? (rate, seconds) : nil
    }

    /// The least time ≥ 0 at which `amplitude`·e^(−`rate`·t), as evaluated, is within
    /// `tolerance`: the bisection's answer (``solve(_:tolerance:decreasingFrom:crossing:)``), found
    /// from the crossing t* = ln(amplitude / tolerance) / rate. The evaluated envelope is
    /// monotone, so the answer is the one double where it goes from above the tolerance to
    /// within it; t* is a few ulps from that double, and a walk of as many steps reaches it: two
    /// to four exps where the bisection needs about twenty-five. A walk that has not arrived
    /// after 64 steps, an envelope with no finite crossing, and a crossing past
    /// ``walkedSecondsLimit`` go to the bisection.
    static func decay(amplitude: Double, rate: Double, tolerance: Double) -> Double {
        func within(_ t: Double) -> Bool { amplitude * Elementary.exp(-rate * t) <= tolerance }
        let crossing = Self.crossing(amplitude: amplitude, rate: rate, tolerance: tolerance)
        if let crossing, crossing.seconds > 0, crossing.seconds < Self.walkedSecondsLimit {
            var t = crossing.seconds
            if within(t) {
                for _ in 0..<64 {
                    let earlier = t.nextDown
                    guard earlier > 0, within(earlier) else { return t }
                    t = earlier
                }
            } else {
                for _ in 0..<64 {
                    t = t.nextUp
                    if within(t) { return t }
                }
            }
        }
        return solve({ amplitude * Elementary.exp(-rate * $0) }, tolerance: tolerance, decreasingFrom: 0, crossing: crossing)
    }

    /// The latest crossing the walk looks for: the bisection doubles its upper end from 1 ms and
    /// gives up past 10⁶ s, returning that end (2²⁹ ms is the last below it), so a crossing from
    /// there on is left to it and its answer stays what it was. (A spring the configuration
    /// accepts settles within an hour.)
    static let walkedSecondsLimit = 1e-3 * 536_870_912.0

    /// How far from the crossing, in rate × seconds, a step is decided without the envelope: the
    /// envelope's ratio to the tolerance there is e^(±1e-9), while the error of evaluating it (an
    /// exp of a few ulps, its argument and the product rounded) and of t* (a log, a division) is
    /// under 1e-12 for rate·t < 1000, where e^(−rate·t) is long past any tolerance.
    static let decidedMargin = 1e-9

    /// The least time (to the last bit a bisection reaches) at which `envelope`, decreasing from
    /// `start`, is within `tolerance`. With its `crossing` known, a step far enough from it
    /// (``decidedMargin``) takes the side the envelope would give without evaluating it: the
    /// same steps, so the same bits, with about a third of the exps.
    static func solve(
        _ envelope: (Double) -> Double, tolerance: Double, decreasingFrom start: Double,
        crossing: (rate: Double, seconds: Double)? = nil
    ) -> Double {
        /// Whether the envelope at `t` is above the tolerance.
        func above(_ t: Double) -> Bool {
            if let crossing, t <= 1000 / crossing.rate {
                let distance = crossing.rate * (t - crossing.seconds)
                if distance < -decidedMargin { return true }
                if distance > decidedMargin { return false }
            }
            return envelope(t) > tolerance
        }
        if envelope(start) <= tolerance { return start }  // (a NaN envelope goes on, as it always has)
        var high = max(start, 1e-3)
        while above(high) { high *= 2; if high > 1e6 { return high } }
        var low = start
        for _ in 0..<80 {
            let mid = (low + high) / 2
            // low and high are adjacent: low stays above the tolerance and high within it, so
            // no later step could change either (stopping here gives the same bits).
            if mid == low || mid == high { break }
            if above(mid) { low = mid } else { high = mid }
        }
        return high
    }

    /// The first time in [0, to] at which the position reaches `level` while moving the way
    /// `direction`'s sign says (any way for 0), or nil: a crossing the other way is skipped, and
    /// the search goes on after the turning point that follows it.
    package func firstTime(reaching level: Double, moving direction: Double, to limit: Double) -> Double? {
        let turns = turningPoints(before: limit)
        var from = 0.0
        while let time = firstTime(reaching: level, from: from, to: limit) {
            if velocity(after: time) * direction >= 0 { return time }
            guard let next = turns.first(where: { $0 > time }) else { return nil }
            from = next
        }
        return nil
    }

    /// The first time in [from, to] at which the position reaches `level`, or nil; found by
    /// bisection within the intervals between turning points, where the position is monotone.
    package func firstTime(reaching level: Double, from: Double = 0, to: Double) -> Double? {
        var edges = [from] + turningPoints(before: to).filter { $0 > from } + [to]
        edges = edges.filter { $0 <= to }
        for index in 0..<(edges.count - 1) {
            var low = edges[index], high = edges[index + 1]
            let yLow = position(after: low) - level, yHigh = position(after: high) - level
            if yLow == 0 { return low }
            guard (yLow < 0) != (yHigh < 0) || yHigh == 0 else { continue }
            for _ in 0..<100 {
                let mid = (low + high) / 2
                let yMid = position(after: mid) - level
                if (yMid < 0) == (yLow < 0) && yMid != 0 { low = mid } else { high = mid }
                if high - low < 1e-12 { break }
            }
            return high
        }
        return nil
    }
}
