import FlywheelCore
import Testing

/// A finger pulls the tempo dial 6 detents past its end (300 BPM), holds still and lets go: the
/// rubber band springs back onto the end and stops there — it never shows a value inside the range
/// it will not rest on — and the gesture is over soon after.
@Suite("Rubber band: springing back from past an end")
struct RubberBandTests {
    static let ms: Nanoseconds = 1_000_000

    /// The pull: from detent 274 (294 BPM) twelve detents up a touch strip, 20 ms apart, then still
    /// for 100 ms and lifted. Returns the frames' positions from the lift on and the rest's time.
    static func pull(bounds: Bounds = .clamp(0...280), parameters: FeelParameters = FeelParameters())
        -> (positions: [Double], rest: (detent: Int, time: Nanoseconds)?, lift: Nanoseconds)
    {
        var knob = KnobEngine(parameters: parameters, bounds: bounds, detent: 274)
        var events: [KnobEngine.Event] = []
        var time: Nanoseconds = 1_000 * ms
        for _ in 0..<12 {
            events += knob.move(by: 1, at: time, touching: true)
            time += 20 * ms
        }
        let lift = time + 80 * ms
        events += knob.lift(at: lift)
        var positions: [Double] = []
        var frameTime = lift
        while knob.nextDeadline != nil, frameTime < lift + 5_000 * ms {
            events += knob.advance(to: frameTime)
            if let frame = knob.frame(at: frameTime) { positions.append(frame.position) }
            frameTime += 1_000 * ms / 240
        }
        let rest = events.compactMap { event -> (Int, Nanoseconds)? in
            if case .rest(let detent, let time) = event { return (detent, time) }
            return nil
        }.last
        return (positions, rest.map { (detent: $0.0, time: $0.1) }, lift)
    }

    @Test("six detents past 300 BPM: the spring-back never undershoots the end and rests on it")
    func noUndershoot() throws {
        let run = Self.pull()
        let lowest = try #require(run.positions.min())
        #expect(lowest >= 280 - 1e-9, "the frames went down to \(lowest), inside the range")
        #expect(run.rest?.detent == 280)
        #expect(run.positions.first ?? 0 > 280.5, "the band is stretched at the lift")
    }

    @Test("the gesture is over (rest) within 250 ms of the lift, not a second later")
    func settlesPromptly() throws {
        let run = Self.pull()
        let rest = try #require(run.rest)
        let seconds = Double(rest.time - run.lift) / 1e9
        #expect(seconds <= 0.25, "rest \(seconds) s after the lift")
    }

    @Test("with every damping (0.1 … 2) the spring-back stays at or past the end and rests on it", arguments: [0.1, 0.35, 0.6, 1.0, 2.0])
    func anyDamping(damping: Double) throws {
        var parameters = FeelParameters()
        parameters.spring.damping = damping
        let run = Self.pull(parameters: parameters)
        #expect((run.positions.min() ?? 0) >= 280 - 1e-9)
        #expect(run.rest?.detent == 280)
        // Critical damping creeps towards the end: it rests once within a hundredth of a detent.
        let seconds = Double((run.rest?.time ?? Nanoseconds.max / 2) - run.lift) / 1e9
        #expect(seconds <= (damping < 1 ? 0.25 : damping == 1 ? 0.4 : 1.0), "rest \(seconds) s after the lift")
    }

    @Test("the low end too: pulled 6 detents below 20 BPM it springs back onto 20")
    func lowEnd() throws {
        var knob = KnobEngine(bounds: .clamp(0...280), detent: 6)
        var time: Nanoseconds = 1_000 * Self.ms
        for _ in 0..<12 {
            _ = knob.move(by: -1, at: time, touching: true)
            time += 20 * Self.ms
        }
        _ = knob.lift(at: time + 80 * Self.ms)
        var highest = -Double.infinity
        var t = time + 80 * Self.ms
        while knob.nextDeadline != nil {
            _ = knob.advance(to: t)
            if let frame = knob.frame(at: t) { highest = max(highest, frame.position) }
            t += 1_000 * Self.ms / 240
        }
        #expect(highest <= 1e-9)
        #expect(knob.reportedDetent == 0)
    }

    @Test("a flick into the end bounces past it and stops on the end, never back inside")
    func flickIntoEnd() throws {
        var knob = KnobEngine(bounds: .clamp(0...280), detent: 270)
        var time: Nanoseconds = 1_000 * Self.ms
        for _ in 0..<6 {
            _ = knob.move(by: 1, at: time)
            time += 25 * Self.ms  // 40 detents/s: projects far past the end
        }
        var positions: [Double] = []
        var t = time
        var reachedEnd = false
        while knob.nextDeadline != nil, t < time + 5_000 * Self.ms {
            _ = knob.advance(to: t)
            if let frame = knob.frame(at: t) {
                if frame.position >= 280 { reachedEnd = true }
                if reachedEnd { positions.append(frame.position) }
            }
            t += 1_000 * Self.ms / 240
        }
        #expect(reachedEnd)
        #expect((positions.min() ?? 0) >= 280 - 1e-9, "after reaching the end the frames went back to \(positions.min() ?? 0)")
        #expect(knob.reportedDetent == 280)
    }
}
