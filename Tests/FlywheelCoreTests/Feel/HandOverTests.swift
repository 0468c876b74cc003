import Testing
@testable import FlywheelCore

/// A hand-over keeps only a motion's first steps until its release; every answer it gives must be
/// the whole motion's.
@Suite("A hand-over answers as its whole motion")
struct HandOverTests {
    static let ms: Int64 = 1_000_000

    /// Plans across positions, velocities (slow to past the speed cap, both ways), bounds with an
    /// end near, springs and release silences.
    static func plans() -> [(MotionPlan, release: Nanoseconds)] {
        var plans: [(MotionPlan, release: Nanoseconds)] = []
        let springs = [SpringParameters.standard, .snappy, .critical, SpringParameters(responseSeconds: 0.05, damping: 2)]
        for (index, spring) in springs.enumerated() {
            var parameters = FeelParameters()
            parameters.spring = spring
            for bounds in [Bounds.unbounded, .clamp(0...12), .stop(0...12)] {
                for position in stride(from: -0.45, through: 11.5, by: 1.55) {
                    for velocity in [-400.0, -95, -31, -9.5, -2.5, 2.1, 4.5, 12, 33.3, 80, 250] {
                        let start = Int64(index) * 7 * ms
                        let silence = [20 * ms, 100 * ms, 600 * ms][index % 3]
                        let plan = MotionPlan(
                            releasedAt: start, position: position, velocity: velocity, reportedDetent: Int(position.rounded()),
                            bounds: bounds, parameters: parameters)
                        plans.append((plan, start + silence))
                    }
                }
            }
        }
        return plans
    }

    @Test("steps, next steps and positions up to the release, and the motion released, are the whole motion's")
    func sameAnswers() {
        var planned = 0
        for (plan, release) in Self.plans() {
            let whole = Motion(plan)
            let handOver = HandOver(plan, release: release)
            if handOver.motion == nil { planned += 1 }
            #expect(handOver.completed == whole)
            let times = stride(from: plan.startNanoseconds - 1, through: release, by: Int64.Stride(max(1, (release - plan.startNanoseconds) / 97)))
            for time in Array(times) + whole.stepNanoseconds.filter({ $0 <= release }).flatMap({ [$0 - 1, $0] }) + [release] {
                let first = whole.stepNanoseconds.first(where: { $0 > time }).flatMap { $0 <= release ? $0 : nil }
                #expect(handOver.firstStep(after: time, upTo: release) == first)
                let through = min(release, time + 3 * Self.ms)
                #expect(handOver.steps(after: time, through: through).map(\.timeNanoseconds) == whole.steps(after: time, through: through).map(\.timeNanoseconds))
                #expect(handOver.steps(after: time, through: through).map(\.detent) == whole.steps(after: time, through: through).map(\.detent))
                if time >= plan.startNanoseconds {
                    let state = whole.state(at: time), answer = handOver.state(at: time)
                    #expect(answer.position == state.position && answer.velocity == state.velocity)
                }
            }
        }
        // Most hand-overs are answered from their first steps: otherwise this tests nothing new.
        #expect(planned > Self.plans().count / 2)
    }

    @Test("reported in order as a knob does (the cursor), the steps and next steps are the whole motion's")
    func cursorInOrder() {
        var moved = 0
        for (plan, release) in Self.plans() {
            let whole = Motion(plan)
            var handOver = HandOver(plan, release: release)
            let span = release - plan.startNanoseconds
            // Irregular strides up to the release, some landing exactly on steps.
            var marks = stride(from: plan.startNanoseconds, through: release, by: Int64.Stride(max(1, span / 13))).map { $0 }
            marks += whole.stepNanoseconds.filter { $0 <= release }
            marks.append(release)
            marks.sort()
            var reportedThrough = plan.startNanoseconds - 1
            var reported: [(Nanoseconds, Int)] = []
            for mark in marks {
                let first = whole.stepNanoseconds.first(where: { $0 > reportedThrough }).flatMap { $0 <= release ? $0 : nil }
                #expect(handOver.firstStep(after: reportedThrough, upTo: release) == first)
                let next = handOver.reportSteps(after: reportedThrough, through: mark, release: release) { reported.append(($0, $1)) }
                #expect(next == whole.stepNanoseconds.first(where: { $0 > mark }).flatMap { $0 <= release ? $0 : nil })
                reportedThrough = mark
            }
            let expected = whole.steps(after: plan.startNanoseconds - 1, through: release)
            #expect(reported.map(\.0) == expected.map(\.timeNanoseconds))
            #expect(reported.map(\.1) == expected.map(\.detent))
            if handOver.cursorStep > 1 { moved += 1 }
        }
        // The cursor moved in many of them: otherwise this tests the fallback only.
        #expect(moved > Self.plans().count / 4)
    }

    @Test("the public initialiser is the plan completed")
    func publicInitialiser() {
        for velocity in [-40.0, -3, 2.5, 17, 90] {
            let plan = MotionPlan(releasedAt: 9 * Self.ms, position: 0.3, velocity: velocity, reportedDetent: 0, bounds: .clamp(-5...5), parameters: FeelParameters())
            #expect(Motion(plan) == Motion(releasedAt: 9 * Self.ms, position: 0.3, velocity: velocity, reportedDetent: 0, bounds: .clamp(-5...5)))
        }
    }
}
