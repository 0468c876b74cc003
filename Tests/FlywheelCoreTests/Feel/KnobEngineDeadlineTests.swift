import Testing
@testable import FlywheelCore

/// Nothing happens to a knob before its deadline: a group skips a knob until then, and a knob run
/// from deadline to deadline reports every event at the deadline it is due at, never late.
/// (Found by a differential review of the per-event rework against the engine before it.)
@Suite("Knob engine: every event at its deadline")
struct KnobEngineDeadlineTests {
    static let ms: Int64 = 1_000_000
    static let device = DeviceIdentity(path: "/dev/input/event1")

    /// Follows the deadlines to rest; each advance's events must be stamped with its deadline.
    static func followDeadlines(_ engine: inout KnobEngine) -> [KnobEngine.Event] {
        var events: [KnobEngine.Event] = []
        var wakeups = 0
        while let deadline = engine.nextDeadline, wakeups < 1000 {
            let due = engine.advance(to: deadline)
            for event in due { #expect(KnobGroup.time(event) == deadline, "\(event) reported at \(deadline)") }
            events += due
            wakeups += 1
        }
        return events
    }

    @Test("a silence that releases the hand before the contacts are quiet is the deadline: a group reports it then, in time order")
    func releaseBeforeBounceQuiet() {
        var parameters = FeelParameters()
        parameters.bounceWindowNanoseconds = 20 * Self.ms
        parameters.releaseSilenceNanoseconds = 10 * Self.ms
        var group = KnobGroup(parameters: parameters, bounds: .unbounded)
        var events: [KnobGroup.Event] = []
        events += group.move(device: Self.device, by: 1, at: 1 * Self.ms, touching: false, base: 0, inertia: true)
        events += group.move(device: Self.device, by: 1, at: 11 * Self.ms, touching: false, base: 0, inertia: true)
        events += group.move(device: Self.device, by: -1, at: 13 * Self.ms, touching: false, base: 0, inertia: true)
        // The bounce back at 13 ms waits for quiet contacts until 33 ms, but the silence releases
        // the hand at 23 ms: the deadline is 23 ms.
        #expect(group.nextDeadline == 23 * Self.ms)
        let at26 = group.advance(to: 26 * Self.ms)
        #expect(at26.contains { if case .released(_, 23_000_000) = $0 { return true } else { return false } }, "\(at26)")
        events += at26
        while let deadline = group.nextDeadline { events += group.advance(to: deadline) }
        let times = events.map(\.timeNanoseconds)
        #expect(times == times.sorted(), "events out of time order: \(events)")
    }

    @Test("brought back to an earlier time, a knob's next deadline is still after everything it reported")
    func backwardsAdvance() {
        var engine = KnobEngine()
        var reported: [KnobEngine.Event] = []
        for t: Int64 in [202, 211, 286, 455, 575, 816] {
            reported += engine.advance(to: t * Self.ms)
            reported += engine.move(by: 1, at: t * Self.ms)
        }
        reported += engine.advance(to: 845 * Self.ms)
        let last = reported.map(KnobGroup.time).max()!
        _ = engine.advance(to: 820 * Self.ms)
        #expect(engine.nextDeadline.map { $0 > 845 * Self.ms } ?? true, "deadline \(String(describing: engine.nextDeadline)) after reporting up to \(last)")
    }

    @Test("a release silence changed in mid-turn: the hand-over's steps still come at their deadlines")
    func releaseSilenceChanged() {
        var engine = KnobEngine()
        for t: Int64 in [75, 309, 349, 387, 441] { _ = engine.move(by: 1, at: t * Self.ms) }
        // Up to the release as it was (541 ms): the hand-over's steps before it are reported, and
        // the one after it was no deadline of the knob's.
        while let deadline = engine.nextDeadline, deadline < 541 * Self.ms { _ = engine.advance(to: deadline) }
        #expect(engine.nextDeadline == 541 * Self.ms)
        engine.parameters.releaseSilenceNanoseconds = 501 * Self.ms
        // Now the release is at 942 ms, and the coast's next step comes before it.
        #expect(engine.nextDeadline.map { $0 < 942 * Self.ms } ?? false, "\(String(describing: engine.nextDeadline))")
        let events = Self.followDeadlines(&engine)
        #expect(KnobEngineTests.detents(events).count > 0, "the hand-over steps on: \(events)")
    }
}
