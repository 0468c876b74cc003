import FlywheelCore
import Testing

/// A knob fed absurd input (2³¹ detents in one report, extreme absolute values) produces a bounded
/// number of events, lands where the hand is, and its coast stays bounded.
@Suite("Knob engine: bounded output for any input")
struct KnobEngineBoundsTests {
    static let ms: Nanoseconds = 1_000_000

    @Test("REL_DIAL 2147483647 in one report: one event, on the detent the hand reached")
    func hugeDelta() {
        var knob = KnobEngine()
        let events = knob.move(by: 2_147_483_647, at: 1_000 * Self.ms)
        #expect(events.count <= KnobEngine.maximumDetentEvents + 1)
        #expect(knob.reportedDetent == 2_147_483_647)
        // The coast after it is bounded too: the speed is capped, so are its steps.
        var coast: [KnobEngine.Event] = []
        var time = 1_000 * Self.ms
        while let deadline = knob.nextDeadline, coast.count < 100_000 {
            time = deadline
            coast += knob.advance(to: time)
        }
        #expect(coast.count < 1000)
        #expect(knob.nextDeadline == nil)
    }

    @Test("a jump within the limit is still reported detent by detent")
    func smallJumpUnchanged() {
        var knob = KnobEngine()
        let events = knob.move(by: 10, at: 1_000 * Self.ms)
        #expect(events.filter { if case .detent = $0 { true } else { false } }.count == 10)
    }

    @Test("extreme values both ways, repeated, keep the position finite and the events bounded")
    func extremes() {
        var knob = KnobEngine()
        var total = 0
        for i in 0..<1000 {
            let delta = i % 2 == 0 ? 1e300 : -1e300
            total += knob.move(by: delta, at: Nanoseconds(1_000 + i) * Self.ms).count
        }
        #expect(total <= 1000 * (KnobEngine.maximumDetentEvents + 2))
        #expect(knob.handPosition.isFinite)
        #expect(abs(knob.handPosition) <= KnobEngine.maximumPosition)
    }

    @Test("a PowerMate-style REL_DIAL 2147483647 in scrub mode through the daemon core: bounded messages")
    func scrubMode() {
        var configuration = FlywheelConfiguration()
        configuration.initialMode = .scrub
        var core = DaemonCore(configuration: configuration, scrubDurationSeconds: 214)
        var messages = core.knob(by: 2_147_483_647, at: 1_000 * Self.ms)
        var time = 1_000 * Self.ms
        while let deadline = core.nextDeadline, messages.count < 100_000 {
            time = deadline
            messages += core.advance(to: time)
        }
        #expect(messages.count < 1000)
        // It reached the end of the content, then (let go within the arming time) rolled back.
        #expect(messages.contains { String(decoding: $0.bytes(seq: 1), as: UTF8.self).contains("\"position\":214") })
        #expect(core.scrub.scrubber.gesture == nil)
    }
}
