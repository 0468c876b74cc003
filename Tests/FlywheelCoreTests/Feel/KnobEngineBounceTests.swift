import Testing
@testable import FlywheelCore

@Suite("Knob engine: contact bounce is not motion")
struct KnobEngineBounceTests {
    static let us: Int64 = 1_000

    /// One detent of a 1-step encoder with bounce: the step, then the contact flipping back and
    /// forth within 2 ms, ending on the step.
    static func bouncyDetent(_ engine: inout KnobEngine, by direction: Double, at time: Int64) -> [KnobEngine.Event] {
        var events = engine.move(by: direction, at: time)
        for (k, offset) in [Int64(40), 250, 300, 700, 1_200, 1_800].enumerated() {
            events += engine.move(by: k % 2 == 0 ? -direction : direction, at: time + offset * Self.us)
        }
        return events
    }

    @Test("bounce after each detent of a slow turn reports each detent once and never flings")
    func slowTurn() {
        var engine = KnobEngine()
        var events: [KnobEngine.Event] = []
        for i in 1...3 { events += Self.bouncyDetent(&engine, by: 1, at: Int64(i) * 250_000 * Self.us) }
        let (after, _) = KnobEngineTests.settle(&engine)
        events += after
        #expect(KnobEngineTests.detents(events) == [1, 2, 3])
        let releases = events.compactMap { if case .released(let v, _) = $0 { return v } else { return nil } }
        #expect(!releases.isEmpty && releases.allSatisfy { $0 == 0 })
        #expect(engine.reportedDetent == 3)
    }

    @Test("bounce that ends back where it started reports nothing, once the contacts are quiet")
    func bounceBack() {
        var engine = KnobEngine()
        var events = engine.move(by: 1, at: 0)
        events += engine.move(by: -1, at: 300 * Self.us)
        events += engine.move(by: 1, at: 900 * Self.us)
        events += engine.move(by: -1, at: 1_500 * Self.us)
        #expect(KnobEngineTests.detents(events) == [1])
        #expect(engine.nextDeadline == 1_500 * Self.us + engine.parameters.bounceWindowNanoseconds)
        let (after, _) = KnobEngineTests.settle(&engine)
        #expect(KnobEngineTests.detents(after).first == 0)
        #expect(engine.reportedDetent == 0)
    }

    @Test("a reversal slower than the bounce window is motion: reported at once")
    func realReversal() {
        var engine = KnobEngine()
        _ = engine.move(by: 1, at: 0)
        let back = engine.move(by: -1, at: 30_000 * Self.us)
        #expect(KnobEngineTests.detents(back) == [0])
    }
}
