import Testing
@testable import FlywheelCore
import FlywheelSimulator

/// The settle time is worked out from the envelope's crossing (a walk of a few ulps from it, or a
/// bisection that decides most of its steps by it); it must land on the bits the plain bisection
/// lands on, or golden replays move.
@Suite("The spring's settle search")
struct SpringTests {
    /// ± 10^[low, high], log-uniform (10^x from the core's own exp, so the test needs no libm).
    static func signedMagnitude(_ low: Double, _ high: Double, _ generator: inout SplitMix64) -> Double {
        let value = Elementary.exp(generator.uniform(low...high) * 2.302585092994046)
        return generator.unitDouble() < 0.5 ? -value : value
    }

    /// An under-damped spring's decay rate and the amplitudes of its position and velocity
    /// envelopes, as ``SpringMotion/settleSeconds`` has them.
    static func envelopes(_ spring: SpringMotion) -> (rate: Double, amplitude: Double, speed: Double)? {
        guard case .under(let a, let w, let b) = spring.regime else { return nil }
        let q = a * b + w * spring.displacement
        return (a, (spring.displacement * spring.displacement + b * b).squareRoot(), (spring.velocity * spring.velocity + q * q).squareRoot())
    }

    /// Calls `body` with the decay rate, the amplitude and the tolerance of both envelopes of 4,000
    /// seeded under-damped springs, from the slowest and smallest to the fastest and largest.
    static func forEachEnvelope(seed: UInt64, _ body: (_ rate: Double, _ scale: Double, _ tolerance: Double) -> Void) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<4_000 {
            let parameters = SpringParameters(
                responseSeconds: generator.uniform(0.05...2), damping: generator.uniform(0.1...0.99))
            let spring = SpringMotion(
                from: Self.signedMagnitude(-7, 4, &generator), velocity: Self.signedMagnitude(-7, 5, &generator), to: 0,
                parameters: parameters)
            guard let (a, amplitude, speed) = Self.envelopes(spring) else {
                Issue.record("damping \(parameters.damping) is under-damped")
                continue
            }
            body(a, amplitude, SpringMotion.positionTolerance)
            body(a, speed, SpringMotion.velocityTolerance)
        }
    }

    @Test("with the crossing known, the search gives the plain bisection's bits with far fewer exps")
    func crossingKeepsTheBits() {
        var plainEvaluations = 0, decidedEvaluations = 0
        Self.forEachEnvelope(seed: 17) { a, scale, tolerance in
            let plain = SpringMotion.solve(
                { plainEvaluations += 1; return scale * Elementary.exp(-a * $0) }, tolerance: tolerance, decreasingFrom: 0)
            let decided = SpringMotion.solve(
                { decidedEvaluations += 1; return scale * Elementary.exp(-a * $0) }, tolerance: tolerance, decreasingFrom: 0,
                crossing: SpringMotion.crossing(amplitude: scale, rate: a, tolerance: tolerance))
            #expect(decided.bitPattern == plain.bitPattern, "scale \(scale) rate \(a) tolerance \(tolerance): \(decided) vs \(plain)")
        }
        // Every step within 1e-9 of the crossing (in rate × seconds) still evaluates, about
        // twenty of a bisection's fifty: well under half in all.
        #expect(decidedEvaluations * 2 < plainEvaluations, "\(decidedEvaluations) evaluations against \(plainEvaluations)")
    }

    @Test("from the crossing, a walk of a few ulps lands on the bisection's bits (all but where exp wobbles) with a few exps")
    func decayKeepsTheBits() {
        var plainEvaluations = 0, walked = 0, differing = 0
        Self.forEachEnvelope(seed: 29) { a, scale, tolerance in
            let plain = SpringMotion.solve(
                { plainEvaluations += 1; return scale * Elementary.exp(-a * $0) }, tolerance: tolerance, decreasingFrom: 0)
            let decay = SpringMotion.decay(amplitude: scale, rate: a, tolerance: tolerance)
            if decay.bitPattern != plain.bitPattern {
                // Where exp's last bit wobbles, the evaluated envelope is not monotone, and the
                // bisection and the walk can stop at different crossings of it a few ulps apart:
                // both within the tolerance, both a millionth of a nanosecond from each other.
                differing += 1
                #expect(abs(Int(decay.bitPattern) - Int(plain.bitPattern)) <= 64, "scale \(scale) rate \(a): \(decay) vs \(plain)")
                #expect(scale * Elementary.exp(-a * decay) <= tolerance)
                #expect(abs(decay - plain) < 1e-15)
            }
            if let crossing = SpringMotion.crossing(amplitude: scale, rate: a, tolerance: tolerance), crossing.seconds > 0 {
                // How many ulps the walk went from t*: each is one exp.
                walked += abs(Int(decay.bitPattern) - Int(crossing.seconds.bitPattern)) + 1
            }
        }
        // The same bits in all but fewer than one in a thousand.
        #expect(differing * 1_000 < 8_000, "\(differing) of 8,000 differ")
        // About fifty exps a plain bisection, a few a walk.
        #expect(walked * 8 < plainEvaluations, "\(walked) steps walked against \(plainEvaluations) evaluations")
    }

    @Test("a spring too slow to settle within 10⁶ s gets the bisection's capped answer, not its true crossing (so no time overflows)")
    func slowestSettle() {
        for rate in [3.1e-10, 1e-8, 1e-5, 1.2e-5, 1.4e-5, 2e-5] {
            let plain = SpringMotion.solve({ Elementary.exp(-rate * $0) }, tolerance: 1e-3, decreasingFrom: 0)
            #expect(SpringMotion.decay(amplitude: 1, rate: rate, tolerance: 1e-3).bitPattern == plain.bitPattern, "rate \(rate)")
        }
        // The slowest a configuration accepts (response 2 s, damping 0.1) settles within an hour.
        let slowest = SpringMotion(from: 0, velocity: 1e5, to: 0, parameters: SpringParameters(responseSeconds: 2, damping: 0.1))
        #expect(slowest.settleSeconds < 3_600)
    }

    @Test("a NaN velocity settles where the plain search says (it goes on searching, as it always has)")
    func nanVelocity() {
        let spring = SpringMotion(from: 1, velocity: .nan, to: 0, parameters: .standard)
        guard let (a, amplitude, speed) = Self.envelopes(spring) else {
            Issue.record("the standard spring is under-damped")
            return
        }
        let plain = max(
            SpringMotion.solve({ amplitude * Elementary.exp(-a * $0) }, tolerance: SpringMotion.positionTolerance, decreasingFrom: 0),
            SpringMotion.solve({ speed * Elementary.exp(-a * $0) }, tolerance: SpringMotion.velocityTolerance, decreasingFrom: 0))
        #expect(spring.settleSeconds.bitPattern == plain.bitPattern)
        #expect(spring.settleSeconds > 0)
    }

    @Test("no finite crossing (nothing to settle, an infinite or NaN amplitude): the envelope decides")
    func noCrossing() {
        #expect(SpringMotion.crossing(amplitude: 0, rate: 3, tolerance: 1e-3) == nil)
        #expect(SpringMotion.crossing(amplitude: .infinity, rate: 3, tolerance: 1e-3) == nil)
        #expect(SpringMotion.crossing(amplitude: .nan, rate: 3, tolerance: 1e-3) == nil)
        #expect(SpringMotion.crossing(amplitude: 1, rate: 0, tolerance: 1e-3) == nil)
        #expect(SpringMotion.crossing(amplitude: .greatestFiniteMagnitude, rate: 1, tolerance: 1e-3) == nil)
        // Settled from the start: the search answers 0 either way.
        let resting = SpringMotion(from: 0, velocity: 0, to: 0, parameters: .standard)
        #expect(resting.settleSeconds == 0)
    }
}
