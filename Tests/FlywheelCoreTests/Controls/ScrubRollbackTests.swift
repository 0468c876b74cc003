import FlywheelCore
import Testing

/// A quick swipe on a touch strip let go within Castro's 0.2 s arming time is cancelled; the
/// frames then glide the scrub home to its origin with the shared spring (Castro's snap-back,
/// ζ 0.35: a slight overshoot), instead of coasting on, freezing and jumping back.
@Suite("Scrub: a cancelled scrub's frames glide home")
struct ScrubRollbackTests {
    static let ms: Nanoseconds = 1_000_000

    /// The swipe of the tablet-strip recording (+1, +1, +2 detents 20 ms apart, lifted at 100 ms)
    /// over a 214 s song at 100 s; frames at 60 Hz from the lift until nothing moves.
    static func swipe() -> (events: [ControlEvent], frames: [(time: Nanoseconds, value: Double)], lift: Nanoseconds) {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100))
        let start: Nanoseconds = 1_000 * ms
        var events = scrub.move(by: 1, at: start + 20 * ms, touching: true)
        events += scrub.move(by: 1, at: start + 40 * ms, touching: true)
        events += scrub.move(by: 2, at: start + 60 * ms, touching: true)
        let lift = start + 100 * ms
        events += scrub.lift(at: lift)
        var frames: [(Nanoseconds, Double)] = []
        var time = lift
        while time < lift + 5_000 * ms {
            if let deadline = scrub.nextDeadline, deadline <= time { events += scrub.advance(to: deadline); continue }
            guard case .frame(_, let value, _, _, _)? = scrub.frame(at: time) else {
                if scrub.nextDeadline == nil { break }
                time += 1_000 * ms / 60
                continue
            }
            frames.append((time, value))
            time += 1_000 * ms / 60
        }
        events += scrub.advance(to: time)
        return (events, frames, lift)
    }

    static func phase(_ event: ControlEvent) -> Scrubber.Phase? {
        if case .scrub(let phase, _, _, _, _) = event { return phase }
        return nil
    }

    @Test("cancelled at the lift, position back at the origin, no scrubbing by momentum after it")
    func cancelledAtLift() throws {
        let run = Self.swipe()
        let cancel = try #require(run.events.first { Self.phase($0) == .cancelled })
        #expect(cancel.timeNanoseconds == run.lift)
        let after = run.events.filter { $0.timeNanoseconds > run.lift }
        #expect(!after.contains { Self.phase($0) == .moved }, "moved after the cancel: \(after)")
        #expect(run.events.filter { Self.phase($0) == .cancelled }.count == 1)
        #expect(!run.events.contains { Self.phase($0) == .committed })
    }

    @Test("the frames glide back to the origin with a slight overshoot, without a jump or a freeze")
    func glidesHome() throws {
        let run = Self.swipe()
        let values = run.frames.map(\.value)
        try #require(values.count >= 5, "frames after the lift: \(values)")
        #expect(values.first! > 103, "the glide starts where the swipe left the scrub")
        #expect(abs(values.last! - 100) < 0.01, "the last frame is at \(values.last!), not home at 100")
        // No jump: one 60 Hz frame never moves more than 1.5 detents' worth (1.07 s each).
        let steps = zip(values, values.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! < 1.5 * 1.07, "a jump of \(steps.max()!) s between frames")
        // No freeze before home: while more than a hundredth of a second away, it moves.
        let frozen = zip(values, values.dropFirst()).filter { abs($0 - 100) > 0.01 && $0 == $1 }
        #expect(frozen.isEmpty)
        // Castro's snap-back: past the origin slightly, then home.
        let lowest = values.min()!
        #expect(lowest < 100 && lowest > 100 - 0.4 * (values.first! - 100))
    }

    @Test("a new touch during the glide takes over: a new scrub from the origin")
    func touchDuringGlide() throws {
        var scrub = ScrubControl(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100))
        _ = scrub.move(by: 3, at: 20 * Self.ms, touching: true)
        _ = scrub.lift(at: 60 * Self.ms)
        let events = scrub.move(by: 1, at: 500 * Self.ms, touching: true)
        #expect(events.compactMap(Self.phase) == [.began, .moved])
        if case .scrub(_, let position, _, let origin, _)? = events.last {
            #expect(origin == 100 && abs(position - 101.07) < 1e-9)
        }
    }
}
