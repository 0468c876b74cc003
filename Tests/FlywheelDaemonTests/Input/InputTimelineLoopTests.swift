import FlywheelCore
import Testing
@testable import FlywheelDaemon

/// Looping a timeline: a pass always takes time, whatever the recording's times say.
@Suite("Input timeline loops")
struct InputTimelineLoopTests {
    @Test("a one-edge timeline and one whose times go backwards loop at most once a second")
    func zeroLength() {
        let one = InputTimeline(items: [(0, .knob(detents: 1))], endNanoseconds: 0, deviceName: "one edge")
        #expect(one.loopPeriodNanoseconds == InputTimeline.minimumLoopNanoseconds)
        let backwards = InputTimeline(items: [(0, .knob(detents: 1)), (-5_000_000, .knob(detents: 1))], endNanoseconds: -5_000_000, deviceName: "backwards")
        #expect(backwards.loopPeriodNanoseconds == InputTimeline.minimumLoopNanoseconds)
        let long = InputTimeline(items: [(0, .knob(detents: 1)), (3_000_000_000, .knob(detents: 1))], endNanoseconds: 4_000_000_000, deviceName: "long")
        #expect(long.loopPeriodNanoseconds == 4_000_000_000)
    }
}
