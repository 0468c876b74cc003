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

    /// A move against the turn within the bounce window counts as bounce whatever its size, so
    /// the report waits while the hand goes far back; the turn then goes on the first way. A
    /// faulty or hostile device can send this (no contact bounces 176 detents), and the fuzzer
    /// did: the report must reach the hand as one jump, as any long jump is, never as one step
    /// event per detent at one instant (each a line to every client; 2⁵² at most).
    @Test("a far bounce against the turn, then the turn goes on: the report jumps to the hand, and no move or wake-up brings more than 64 detent events",
          arguments: [Bounds.unbounded, .clamp(0...280), .stop(0...280)], [-176.0, -3_000_000])
    func farBounceThenTurn(bounds: Bounds, far: Double) {
        var engine = KnobEngine(bounds: bounds, detent: 140)
        let ms: Nanoseconds = 1_000_000
        var calls: [[KnobEngine.Event]] = []
        // A turn, a report far back 1 ms later (bounce by its timing), forward again (the bounce
        // settling, by its timing too), and one more detent of the turn.
        for (delta, time) in [(1.0, 1_000 * ms), (1, 1_010 * ms), (far, 1_011 * ms), (1, 1_012 * ms), (1, 1_013 * ms)] {
            calls.append(engine.move(by: delta, at: time))
        }
        var wakeups = 0
        while let deadline = engine.nextDeadline, wakeups < 1000 {
            calls.append(engine.advance(to: deadline))
            wakeups += 1
        }
        let most = calls.map { KnobEngineTests.detents($0).count }.max() ?? 0
        #expect(most <= KnobEngine.maximumDetentEvents, "\(most) detent events in one call")
        #expect(engine.nextDeadline == nil, "at rest after \(wakeups) wake-ups")
        // It rests where the hand is (140 + 2 + far + 2, within the range), or a coast on from it
        // at most: the velocity fit saw the far report, and a release's speed is capped.
        let coast = Int(engine.parameters.maximumSpeed / engine.parameters.friction.perSecond) + 1
        #expect(abs(engine.reportedDetent - bounds.clamp(144 + Int(far))) <= coast, "rests on \(engine.reportedDetent)")
    }
}
