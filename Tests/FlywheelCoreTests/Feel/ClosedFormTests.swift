import Testing
@testable import FlywheelCore

/// The closed forms against a fine-step numerical integration (RK4, here in the test only) of
/// the same equations.
@Suite("Closed forms against numerical integration")
struct ClosedFormTests {
    /// RK4 for x'' = f(x, v).
    static func integrate(x: Double, v: Double, seconds: Double, dt: Double = 1e-5, acceleration: (Double, Double) -> Double)
        -> [(t: Double, x: Double, v: Double)]
    {
        var out: [(Double, Double, Double)] = [(0, x, v)]
        var x = x, v = v, t = 0.0
        let steps = Int((seconds / dt).rounded())
        for i in 1...steps {
            let k1x = v, k1v = acceleration(x, v)
            let k2x = v + dt / 2 * k1v, k2v = acceleration(x + dt / 2 * k1x, v + dt / 2 * k1v)
            let k3x = v + dt / 2 * k2v, k3v = acceleration(x + dt / 2 * k2x, v + dt / 2 * k2v)
            let k4x = v + dt * k3v, k4v = acceleration(x + dt * k3x, v + dt * k3v)
            x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t = Double(i) * dt
            if i % 1000 == 0 { out.append((t, x, v)) }
        }
        return out
    }

    @Test("coast: x(t), v(t) and time-to-position", arguments: [Friction.standard, .iosNormal, .iosFast])
    func coast(_ friction: Friction) {
        let k = friction.perSecond
        let coast = Coast(position: 1.5, velocity: -23, friction: k)
        for point in Self.integrate(x: 1.5, v: -23, seconds: 2, acceleration: { _, v in -k * v }) {
            #expect(abs(coast.position(after: point.t) - point.x) < 1e-6)
            #expect(abs(coast.velocity(after: point.t) - point.v) < 1e-6)
        }
        #expect(abs(coast.restingPoint - (1.5 - 23 / k)) < 1e-12)
        let t = coast.seconds(toReach: -0.5)!
        #expect(abs(coast.position(after: t) + 0.5) < 1e-9)
        #expect(coast.seconds(toReach: 2) == nil)  // behind
        #expect(coast.seconds(toReach: coast.restingPoint - 0.001) == nil)  // beyond the resting point
    }

    @Test("presets: ios-normal ≈ 2.002, ios-fast ≈ 10.05")
    func presets() {
        #expect(abs(Friction.iosNormal.perSecond - 2.002_002_670_673_4) < 1e-9)
        #expect(abs(Friction.iosFast.perSecond - 10.050_335_853_501) < 1e-9)
    }

    @Test("spring: under-, critically and over-damped", arguments: [0.1, 0.35, 0.6, 0.999_999, 1.0, 1.3, 2.0])
    func spring(_ damping: Double) {
        let parameters = SpringParameters(responseSeconds: 0.3, damping: damping)
        let omega = parameters.angularFrequency
        let motion = SpringMotion(from: 4.75, velocity: 9, to: 5, parameters: parameters)
        let reference = Self.integrate(x: 4.75, v: 9, seconds: 1.5) { x, v in -omega * omega * (x - 5) - 2 * damping * omega * v }
        for point in reference {
            #expect(abs(motion.position(after: point.t) - point.x) < 1e-6, "t=\(point.t)")
            #expect(abs(motion.velocity(after: point.t) - point.v) < 1e-5, "t=\(point.t)")
        }
    }

    @Test("documented overshoots: 30.9 %, 9.5 %, none")
    func overshoot() {
        #expect(abs(SpringParameters.standard.overshoot - 0.309) < 0.001)
        #expect(abs(SpringParameters.snappy.overshoot - 0.0948) < 0.001)
        #expect(SpringParameters.critical.overshoot == 0)
        // And the motion shows it: a unit step from rest overshoots by that much.
        let motion = SpringMotion(from: 0, velocity: 0, to: 1, parameters: .standard)
        let peak = motion.turningPoints(before: 1)[0]
        #expect(abs(motion.position(after: peak) - 1.309) < 0.001)
    }

    @Test("settle time is a guarantee and not loose", arguments: [0.1, 0.35, 0.6, 1.0, 1.5, 2.0])
    func settle(_ damping: Double) {
        for (x0, v0) in [(0.25, 3.0), (-1.0, 0.0), (0.0, -40.0), (0.4, -6.0)] {
            let motion = SpringMotion(from: x0, velocity: v0, to: 0, parameters: SpringParameters(responseSeconds: 0.3, damping: damping))
            let settle = motion.settleSeconds
            var lastViolation = 0.0
            var t = 0.0
            while t < settle + 2 {
                let outside = abs(motion.position(after: t)) > SpringMotion.positionTolerance
                    || abs(motion.velocity(after: t)) > SpringMotion.velocityTolerance
                if outside { lastViolation = t }
                t += 1e-4
            }
            #expect(lastViolation <= settle, "ζ=\(damping) x0=\(x0) v0=\(v0): still moving at \(lastViolation) > \(settle)")
            #expect(settle <= lastViolation + 0.35, "ζ=\(damping) x0=\(x0) v0=\(v0): bound \(settle) vs \(lastViolation)")
        }
    }
}
