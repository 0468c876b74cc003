import Testing
@testable import FlywheelCore

@Suite("Knob engine: hand, release and momentum")
struct KnobEngineTests {
    static let ms: Int64 = 1_000_000

    static func detents(_ events: [KnobEngine.Event]) -> [Int] {
        events.compactMap { if case .detent(let d, _) = $0 { return d } else { return nil } }
    }

    /// Runs the engine to rest, collecting events, waking only at its deadlines.
    static func settle(_ engine: inout KnobEngine) -> (events: [KnobEngine.Event], wakeups: Int) {
        var events: [KnobEngine.Event] = []
        var wakeups = 0
        while let deadline = engine.nextDeadline {
            events += engine.advance(to: deadline)
            wakeups += 1
            if wakeups > 1000 { break }
        }
        return (events, wakeups)
    }

    @Test("a flick keeps turning after the hand stops; the consumer sees plain detent events")
    func flick() {
        var engine = KnobEngine()
        var events: [KnobEngine.Event] = []
        for i in 1...6 { events += engine.move(by: 1, at: Int64(i) * 30 * Self.ms) }  // 33 detents/s
        #expect(Self.detents(events) == [1, 2, 3, 4, 5, 6])
        let (after, wakeups) = Self.settle(&engine)
        let coasted = Self.detents(after)
        #expect(coasted.first == 7)
        #expect(coasted == Array(7...(coasted.last ?? 7)))
        #expect(coasted.count >= 5)  // ≈ 33/4 ≈ 8 detents
        if case .rest(let d, _) = after.last! { #expect(d == engine.reportedDetent) } else { Issue.record("no rest event") }
        #expect(engine.nextDeadline == nil)
        #expect(wakeups < 20)
    }

    @Test("a slow turn stops where the hand left it")
    func slow() {
        var engine = KnobEngine()
        for i in 1...3 { _ = engine.move(by: 1, at: Int64(i) * 600 * Self.ms) }
        let (after, _) = Self.settle(&engine)
        #expect(Self.detents(after).isEmpty)
        #expect(engine.reportedDetent == 3)
    }

    @Test("input against the coast stops it at once; input with it adds momentum")
    func reverseAndAdd() {
        var base = KnobEngine()
        for i in 1...6 { _ = base.move(by: 1, at: Int64(i) * 30 * Self.ms) }
        _ = base.advance(to: 290 * Self.ms)  // released at 280 ms, coasting
        #expect(base.motion?.state(at: 290 * Self.ms).phase == .coasting)

        var reverse = base
        _ = reverse.move(by: -1, at: 300 * Self.ms)
        #expect(reverse.motion == nil)
        let (reverseRest, _) = Self.settle(&reverse)
        _ = reverseRest
        var plain = base
        _ = Self.settle(&plain)
        #expect(reverse.reportedDetent < plain.reportedDetent)

        var add = base
        _ = add.move(by: 1, at: 300 * Self.ms)
        _ = Self.settle(&add)
        #expect(add.reportedDetent > plain.reportedDetent)
    }

    @Test("a touch releases on lift, with zero velocity if the finger had stopped 40 ms before")
    func touch() {
        var engine = KnobEngine()
        for i in 1...10 { _ = engine.move(by: 0.5, at: Int64(i) * 10 * Self.ms, touching: true) }
        #expect(engine.nextDeadline == nil)  // no silence release while touching
        var held = engine
        let lifted = engine.lift(at: 105 * Self.ms)
        if case .released(let v, _) = lifted.first(where: { if case .released = $0 { return true } else { return false } })! {
            #expect(abs(v - 50) < 1e-6)
        }
        let late = held.lift(at: 150 * Self.ms)
        if case .released(let v, _) = late.first(where: { if case .released = $0 { return true } else { return false } })! {
            #expect(v == 0)
        }
    }

    @Test("clamped range: reported detent stops at the end, overscroll springs back")
    func clamp() {
        var engine = KnobEngine(bounds: .clamp(0...3))
        var events: [KnobEngine.Event] = []
        for i in 1...8 { events += engine.move(by: 1, at: Int64(i) * 20 * Self.ms) }
        #expect(Self.detents(events) == [1, 2, 3])
        let frame = engine.frame(at: 160 * Self.ms)!
        #expect(frame.position > 3 && frame.position < 5)
        _ = Self.settle(&engine)
        #expect(engine.reportedDetent == 3)
    }
}
