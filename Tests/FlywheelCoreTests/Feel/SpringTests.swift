import Testing
@testable import FlywheelCore
import FlywheelSimulator

/// The settle search decides most of its steps from the envelope's crossing, worked out once;
/// it must land on exactly the bits the plain bisection lands on, or every golden replay moves.
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

    @Test("with the crossing known, the search gives the plain bisection's bits with far fewer exps")
    func crossingKeepsTheBits() {
        var generator = SplitMix64(seed: 17)
        var plainEvaluations = 0, decidedEvaluations = 0
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
            for (scale, tolerance) in [(amplitude, SpringMotion.positionTolerance), (speed, SpringMotion.velocityTolerance)] {
                let plain = SpringMotion.solve(
                    { plainEvaluations += 1; return scale * Elementary.exp(-a * $0) }, tolerance: tolerance, decreasingFrom: 0)
                let decided = SpringMotion.solve(
                    { decidedEvaluations += 1; return scale * Elementary.exp(-a * $0) }, tolerance: tolerance, decreasingFrom: 0,
                    crossing: SpringMotion.crossing(amplitude: scale, rate: a, tolerance: tolerance))
                #expect(decided.bitPattern == plain.bitPattern, "scale \(scale) rate \(a) tolerance \(tolerance): \(decided) vs \(plain)")
            }
        }
        // Every step within 1e-9 of the crossing (in rate × seconds) still evaluates, about
        // twenty of a bisection's fifty: well under half in all.
        #expect(decidedEvaluations * 2 < plainEvaluations, "\(decidedEvaluations) evaluations against \(plainEvaluations)")
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
