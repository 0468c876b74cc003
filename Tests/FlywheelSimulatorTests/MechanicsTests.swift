import FlywheelCore
import Testing

@testable import FlywheelSimulator

@Suite struct MechanicsTests {
    @Test func expAndLogAreAccurate() {
        #expect(Elementary.exp(0) == 1)
        #expect(abs(Elementary.exp(1) - 2.718281828459045) < 1e-15)
        #expect(abs(Elementary.exp(-20) - 2.061153622438558e-09) < 1e-23)
        #expect(abs(Elementary.log(2) - 0.6931471805599453) < 1e-16)
        #expect(abs(Elementary.log(1e-6) + 13.815510557964274) < 1e-13)
        #expect(Elementary.log(1) == 0)
        for x in stride(from: -30.0, through: 30.0, by: 0.37) {
            let roundTrip = Elementary.log(Elementary.exp(x))
            #expect(abs(roundTrip - x) <= 1e-14 * max(1, abs(x)))
        }
    }

    @Test func segmentsInvertInClosedForm() {
        let linear = MotionSegment.linear(start: 1_000, end: 101_000, from: 2, to: -3)
        #expect(linear.time(atAngle: -0.5) == 51_000)
        #expect(linear.angle(at: 51_000) == -0.5)
        #expect(linear.endAngle == -3)

        let decay = MotionSegment.decay(start: 0, end: 2_000_000_000, from: 1, velocity: 30, friction: 6)
        // θ(τ) = 1 + 5·(1 − e^(−6τ)); at τ = ln(2)/6, θ = 3.5.
        let expected = Nanoseconds((0.6931471805599453 / 6 * 1e9).rounded())
        #expect(decay.time(atAngle: 3.5) == expected)
        #expect(abs(decay.angle(at: expected) - 3.5) < 1e-8)
        #expect(abs(decay.velocity(at: expected) - 15) < 1e-6)
        #expect(abs(decay.endAngle - (1 + 5 * (1 - Elementary.exp(-12)))) < 1e-12)
    }

    @Test func flickCoastsThenSnapsToTheNearestDetent() {
        var random = SeededGenerator(seed: 1)
        let plan = HandMotion.plan(
            [(Gesture.flick(velocity: 30), 1), (Gesture.flick(velocity: -13), 2)], settings: MechanicsSettings(),
            defaultButton: nil, random: &random)
        // Coasting from 30/s to 1/s under friction 6 travels (30 − 1)/6 = 4.83 detents → 5;
        // from −13/s, 12/6 = 2 detents exactly.
        #expect(plan.gestures.map(\.detents) == [5, -2])
        #expect(plan.truthDetents == 3)
        guard case .decay = plan.segments[0] else {
            Issue.record("a flick starts with a decay segment")
            return
        }
        #expect(plan.segments[1].endAngle == 5)  // the snap lands exactly on the detent
    }

    @Test func wigglesAndJitterNeverCompleteADetent() {
        var random = SeededGenerator(seed: 5)
        let steps: [(Gesture, Int)] = [
            (.turn(detents: 2, speed: 10), 1), (.wiggle(fraction: 0.49, speed: 2), 2),
            (.wiggle(fraction: -0.49, speed: 2), 3), (.jitter(amplitude: 0.45, nanoseconds: 2_000_000_000), 4),
        ]
        let plan = HandMotion.plan(steps, settings: MechanicsSettings(), defaultButton: nil, random: &random)
        #expect(plan.truthDetents == 2)
        #expect(plan.gestures.map(\.detents) == [2, 0, 0, 0])
        let after = plan.segments.filter { $0.start >= plan.gestures[1].startNanoseconds }
        #expect(after.count > 10)  // the jitter moved about
        for segment in after {
            #expect(abs(segment.startAngle - 2) < 0.5)
            #expect(abs(segment.endAngle - 2) < 0.5)
        }
        #expect(after.last?.endAngle == 2)
    }

    @Test func turnsVaryInSpeedButNotInDistance() {
        var random = SeededGenerator(seed: 9)
        let plan = HandMotion.plan(
            [(Gesture.turn(detents: -10, speed: 20), 1)], settings: MechanicsSettings(), defaultButton: nil,
            random: &random)
        #expect(plan.segments.count == 10)
        #expect(plan.segments.last?.endAngle == -10)
        let durations = plan.segments.map { $0.end - $0.start }
        #expect(Set(durations).count > 1)
        for duration in durations {  // 50 ms ± 15 %
            #expect(duration >= 43_000_000 && duration <= 59_000_000)
        }
    }

    @Test func quarterStepIndexPutsTheDetentCentreInTheRestState() {
        let rest = QuadratureLevels(code: 3)
        #expect(QuadratureContacts.index(atAngle: 0, stepsPerDetent: .four) == 0)
        #expect(QuadratureContacts.index(atAngle: 0.124, stepsPerDetent: .four) == 0)
        #expect(QuadratureContacts.index(atAngle: 0.125, stepsPerDetent: .four) == 1)
        #expect(QuadratureContacts.index(atAngle: -0.13, stepsPerDetent: .four) == -1)
        #expect(QuadratureContacts.index(atAngle: 0.49, stepsPerDetent: .one) == 0)
        #expect(QuadratureContacts.levels(atIndex: 0, rest: rest) == rest)
        #expect(QuadratureContacts.levels(atIndex: 1, rest: rest).description == "01")  // 11 → 01 is positive
        #expect(QuadratureContacts.levels(atIndex: 4, rest: rest) == rest)
    }
}
