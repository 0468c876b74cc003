import Testing
@testable import FlywheelCore

@Suite("Fling, landing and the reported detent")
struct MotionTests {
    static let ms: Int64 = 1_000_000

    @Test("lands exactly on the projected detent over a grid of positions and velocities")
    func landing() {
        let parameters = FeelParameters()
        let k = parameters.friction.perSecond
        for positionStep in -8...8 {
            let position = Double(positionStep) * 0.05
            for velocityStep in -60...60 {
                let velocity = Double(velocityStep)
                let motion = Motion(releasedAt: 0, position: position, velocity: velocity, reportedDetent: 0, parameters: parameters)
                var expected = Int((position + velocity / k).rounded())
                if abs(velocity) >= 0.5 * k {
                    let direction = velocity > 0 ? 1 : -1
                    if (expected - Int(position.rounded())) * direction < 1 { expected = Int(position.rounded()) + direction }
                } else {
                    expected = Int(position.rounded())
                }
                #expect(motion.target == expected, "x=\(position) v=\(velocity)")
                let end = motion.state(at: motion.settleNanoseconds)
                #expect(end.position == Double(expected) && end.reportedDetent == expected && end.phase == .resting)
                let before = motion.state(at: motion.settleNanoseconds - 1)
                #expect(abs(before.position - Double(expected)) <= 1.001e-3)
            }
        }
    }

    @Test("a real flick moves at least one detent; a slow release does not coast")
    func atLeastOne() {
        let flick = Motion(releasedAt: 0, position: 0, velocity: 2.1, reportedDetent: 0)  // projects to 0.525 → 1
        #expect(flick.target == 1)
        let weak = Motion(releasedAt: 0, position: 0, velocity: 1.9, reportedDetent: 0)  // below 0.5·k = 2
        #expect(weak.target == 0 && weak.coast == nil)
    }

    @Test("the speed cap and the range clamp")
    func capAndClamp() {
        let capped = Motion(releasedAt: 0, position: 0, velocity: 1000, reportedDetent: 0)
        #expect(capped.target == 15)  // 60 / 4
        let clamped = Motion(releasedAt: 0, position: 95, velocity: 40, reportedDetent: 95, bounds: .clamp(0...100))
        #expect(clamped.target == 100)
        #expect(clamped.state(at: clamped.settleNanoseconds).position == 100)
    }

    @Test("the coast retunes its friction to land on n and hands over 0.25 detent before it")
    func handover() {
        let motion = Motion(releasedAt: 0, position: 0.1, velocity: 30, reportedDetent: 0)
        let coast = motion.coast!
        #expect(abs(coast.restingPoint - Double(motion.target)) < 1e-9)
        #expect(abs(coast.position(after: motion.coastSeconds) - (Double(motion.target) - 0.25)) < 1e-9)
        #expect(abs(motion.spring.displacement + 0.25) < 1e-9)
        #expect(abs(motion.spring.velocity - coast.velocity(after: motion.coastSeconds)) < 1e-9)
    }

    /// Every damping and response the configuration accepts, densely, with many flicks: the
    /// reported detent only ever steps towards the target, one at a time, ends on it, and is never
    /// the overshoot.
    @Test("no detent flicker anywhere in the accepted parameter range")
    func noFlicker() {
        var checked = 0
        for dampingStep in 0...19 {
            let damping = 0.1 + Double(dampingStep) * 0.1
            for response in [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0] {
                var parameters = FeelParameters()
                parameters.spring = SpringParameters(responseSeconds: response, damping: damping)
                for velocity in stride(from: -60.0, through: 60.0, by: 7.5) {
                    for position in [-0.45, -0.2, 0, 0.3, 0.49] {
                        let motion = Motion(releasedAt: 0, position: position, velocity: velocity, reportedDetent: 0, parameters: parameters)
                        let direction = motion.target >= 0 ? 1 : -1
                        var previous = 0
                        var t: Int64 = 0
                        let step = max(motion.settleNanoseconds / 200, 1)
                        while t <= motion.settleNanoseconds {
                            let state = motion.state(at: t)
                            // Monotone towards the target, never past it: no flicker, no reported overshoot.
                            let change = (state.reportedDetent - previous) * direction
                            #expect(change >= 0, "ζ=\(damping) r=\(response) v=\(velocity) x=\(position): \(previous) → \(state.reportedDetent)")
                            #expect((min(0, motion.target)...max(0, motion.target)).contains(state.reportedDetent))
                            previous = state.reportedDetent
                            t += step
                        }
                        // Each step is a real crossing: at its time the position is on the cell boundary
                        // (or was already past it at the release).
                        for (index, time) in motion.stepNanoseconds.enumerated() {
                            let boundary = Double(direction) * (Double(index) + 0.5)
                            let at = motion.state(at: time).position
                            #expect(time == 0 || abs(at - boundary) < 1e-3,
                                    "ζ=\(damping) r=\(response) v=\(velocity) x=\(position): step \(index) at \(at), boundary \(boundary)")
                        }
                        #expect(motion.state(at: motion.settleNanoseconds).reportedDetent == motion.target)
                        // Steps come in order and never go back.
                        #expect(motion.stepNanoseconds == motion.stepNanoseconds.sorted())
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 20 * 8 * 17 * 5)
    }

    @Test("stepping from deadline to deadline visits every detent change in order and ends with nil")
    func deadlines() {
        let motion = Motion(releasedAt: 5 * Self.ms, position: 0, velocity: -25, reportedDetent: 0)
        var t = motion.startNanoseconds
        var seen: [Int] = []
        var wakeups = 0
        while let next = motion.nextDeadline(after: t) {
            #expect(next > t)
            for step in motion.steps(after: t, through: next) { seen.append(step.detent) }
            t = next
            wakeups += 1
            #expect(wakeups < 100)
        }
        #expect(seen == Array(stride(from: -1, through: motion.target, by: -1)))
        #expect(t == motion.settleNanoseconds)
        #expect(motion.state(at: t).phase == .resting)
    }

    @Test("rubber band: follows at 0.55 at first, never exceeds the dimension; wrap is modulo")
    func bounds() {
        #expect(abs(RubberBand.offset(pull: 0.001, dimension: 2) / 0.001 - 0.55) < 1e-3)
        #expect(abs(RubberBand.offset(pull: 2, dimension: 2) - 2 * (1 - 1 / 1.55)) < 1e-12)
        #expect(RubberBand.offset(pull: 1e9, dimension: 2) < 2)
        let clamp = Bounds.clamp(0...10)
        #expect(clamp.displayed(12) > 10 && clamp.displayed(12) < 12 && clamp.displayed(5) == 5 && clamp.displayed(-3) < 0)
        #expect(Bounds.wrap(count: 39).wrapped(-1) == 38 && Bounds.wrap(count: 39).wrapped(40) == 1)
    }
}
