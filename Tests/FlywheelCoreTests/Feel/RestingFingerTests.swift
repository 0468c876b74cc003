import Testing
@testable import FlywheelCore

/// A finger resting still on a touch panel moves nothing: no frames until it moves again (issue 34:
/// frames kept coming at 60 Hz under a resting finger, and a replay of such a recording never ended).
@Suite("A resting finger")
struct RestingFingerTests {
    static let ms: Nanoseconds = 1_000_000

    @Test("frames while the finger moves, none once it rests, again when it moves, none after the lift")
    func frames() {
        var engine = KnobEngine()
        for i in 0..<10 { _ = engine.move(by: 0.2, at: Nanoseconds(i) * 8 * Self.ms, touching: true) }
        let lastMove = 72 * Self.ms
        #expect(engine.frame(at: lastMove + 8 * Self.ms) != nil, "the finger was moving a frame ago")
        #expect(engine.frame(at: lastMove + 500 * Self.ms) == nil, "a finger resting for half a second moves nothing")
        #expect(engine.frame(at: lastMove + 60_000 * Self.ms) == nil)
        _ = engine.move(by: 0.2, at: lastMove + 1000 * Self.ms, touching: true)
        #expect(engine.frame(at: lastMove + 1000 * Self.ms) != nil, "moving again, frames again")
        _ = engine.lift(at: lastMove + 2000 * Self.ms)
        _ = engine.advance(to: lastMove + 10_000 * Self.ms)
        #expect(engine.frame(at: lastMove + 10_000 * Self.ms) == nil)
    }

    @Test("a pipeline's frames stop under a resting finger: its deadline is nil while the finger rests")
    func pipelineStops() {
        var core = DaemonCore()
        for i in 0..<10 { _ = core.knob(by: 0.2, at: Nanoseconds(i) * 8 * Self.ms, touching: true) }
        #expect(core.isMoving(at: 80 * Self.ms))
        #expect(!core.isMoving(at: 2000 * Self.ms), "a resting finger is not motion")
    }
}
