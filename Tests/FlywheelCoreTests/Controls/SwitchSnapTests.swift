import Testing
@testable import FlywheelCore

/// The N-way mode switch on a strip moves between segments in frames and snaps onto the nearest
/// with the feel's spring (seed 003, DGRunkeeperSwitch; issue 34: the `mode` message came at the
/// lift and no frames moved between segments).
@Suite("The mode switch's snap")
struct SwitchSnapTests {
    static let ms: Nanoseconds = 1_000_000

    /// The switch frames among `messages`: (position, offset, velocity, time).
    static func switchFrames(_ core: DaemonCore, from start: Nanoseconds, through end: Nanoseconds, every period: Nanoseconds) -> [(value: Double, offset: Double, velocity: Double)] {
        var out: [(value: Double, offset: Double, velocity: Double)] = []
        for time in stride(from: start, through: end, by: Int(period)) {
            for message in core.frames(at: time) {
                let text = String(decoding: message.bytesWithoutSeq, as: UTF8.self)
                guard text.contains(#""control":"mode""#), let json = try? JSONParser.parse(Array(text.utf8)) else { continue }
                out.append((json["value"]!.doubleValue!, json["offset"]!.doubleValue!, json["velocity"]!.doubleValue!))
            }
        }
        return out
    }

    @Test("a pan shows the switch between segments, and the lift springs it onto the nearest with an overshoot, then nothing")
    func panAndSnap() {
        var core = DaemonCore(modes: [.tempo, .scrub])
        _ = core.selectMode(.scrub)
        // A finger down on the right half (scrub's segment), panned left to just past the middle.
        _ = core.touchDown(at: 0.75, spanning: 40, time: 0, route: .modeSwitch)
        var t: Nanoseconds = 0
        for _ in 0..<7 {
            t += 16 * Self.ms
            _ = core.knob(by: -2, at: t, touching: true, route: .modeSwitch)  // 0.05 of the strip each
        }
        let panning = Self.switchFrames(core, from: t, through: t, every: 16 * Self.ms)
        #expect(panning.count == 1 && abs(panning[0].value - 0.3) < 1e-9 && abs(panning[0].offset + 0.7) < 1e-9, "between the segments: \(panning)")
        #expect(panning.first.map { $0.velocity < 0 } == true, "moving towards tempo")
        let lift = t + 8 * Self.ms
        let messages = core.lift(at: lift, route: .modeSwitch)
        #expect(messages.contains { String(decoding: $0.bytesWithoutSeq, as: UTF8.self).contains(#""mode":"tempo""#) })
        let snap = Self.switchFrames(core, from: lift, through: lift + 3000 * Self.ms, every: 16 * Self.ms)
        #expect(snap.count > 10, "the snap is animated: \(snap.count) frames")
        #expect(abs(snap[0].value - 0.3) < 0.01, "it starts where the pan left it")
        #expect(snap.map(\.value).min()! < -0.01, "the spring (ζ 0.35) overshoots past the segment: \(snap.map(\.value))")
        #expect(abs(snap.last!.offset) < 0.01 && snap.last!.value == snap.last!.offset, "it settles on tempo's segment, 0")
        #expect(!core.isMoving(at: lift + 3000 * Self.ms), "at rest, no frames")
    }

    @Test("a finger resting on the switch gives no frames")
    func resting() {
        var core = DaemonCore(modes: [.tempo, .scrub])
        _ = core.touchDown(at: 0.25, spanning: 40, time: 0, route: .modeSwitch)
        #expect(core.isMoving(at: 10 * Self.ms))
        #expect(!core.isMoving(at: 500 * Self.ms))
    }
}
