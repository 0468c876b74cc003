import Testing
@testable import FlywheelCore

@Suite("Mode switch")
struct ModeSwitchTests {
    @Test("a tap advances and wraps")
    func tap() {
        var modes = ModeSwitch(segments: [.tempo, .scrub])
        #expect(modes.active == .tempo)
        #expect(modes.tap() == .scrub)
        #expect(modes.tap() == .tempo)
    }

    @Test("a partial pan snaps to the nearest segment")
    func pan() {
        var modes = ModeSwitch(segments: [.tempo, .scrub])
        modes.pan(to: 0.4)
        #expect(modes.endPan() == nil)
        #expect(modes.active == .tempo)
        modes.pan(to: 0.6)
        #expect(modes.endPan() == .scrub)
        modes.pan(to: 7)
        #expect(modes.offset == 1)
        var tempoOnly = ModeSwitch(segments: [.tempo])
        #expect(modes.select(.tempo) && !tempoOnly.select(.scrub))
    }
}

@Suite("Springs for the strip: mode snap and the edge hint")
struct StripSpringTests {
    @Test("a partial pan springs onto the nearest segment")
    func snap() {
        var modes = ModeSwitch(segments: [.tempo, .scrub])
        modes.pan(to: 0.7)
        _ = modes.endPan()
        let spring = modes.snap(velocity: 2)
        #expect(spring.position(after: 0) == 0.7)
        #expect(abs(spring.position(after: spring.settleSeconds) - 1) <= 1e-3)
        #expect(spring.turningPoints(before: spring.settleSeconds).count >= 1)  // it overshoots and comes back
    }

    @Test("the edge hint pushes towards the edge, falls back past zero and settles")
    func hint() {
        let hint = EdgeHint(at: 1_000_000_000, direction: 1)
        let frames = hint.frames(framesPerSecond: 60)
        let offsets = frames.map(\.offset)
        let peak = offsets.max()!
        #expect(peak > 0.2 && peak < 0.5)
        #expect(offsets.firstIndex(of: peak)! < offsets.firstIndex(where: { $0 < 0 })!)  // push, then fall back
        #expect(offsets.last == 0)
        #expect(frames.first!.timeNanoseconds == 1_000_000_000)
        let left = EdgeHint(at: 0, direction: -1).frames(framesPerSecond: 60).map(\.offset)
        #expect(left.min()! < -0.2)
    }
}
