import FlywheelCore
import Testing

/// No hitch at the release: the frames keep moving from the hand's last detent into the coast.
@Suite("Hands: the release hand-over")
struct ReleaseHandsTests {
    @Test("after turn +10 at 40/s the frames never stop between the last hand detent and the coast", arguments: 1...6)
    func noHitch(seed: UInt64) throws {
        let run = try Hands.run("turn +10 at 40/s\nhold 2s\n", profile: try Hands.profile("ec11"), seed: seed, framesPerSecond: 60)
        let lastHand = try #require(run.knobInputSeconds.last)
        let handTimes = run.knobInputSeconds.suffix(4)
        let handPeriod = (handTimes.last! - handTimes.first!) / Double(handTimes.count - 1)
        #expect(handPeriod > 0.015 && handPeriod < 0.04)
        let frames = run.messages("frame").compactMap { frame -> (time: Double, offset: Double, velocity: Double)? in
            guard let t = frame["time"]?.doubleValue, let x = frame["offset"]?.doubleValue, let v = frame["velocity"]?.doubleValue else { return nil }
            return (t, x, v)
        }
        // From the last hand detent until the motion first turns (the spring's overshoot), every frame
        // is further on than the one before: no stall, no step back.
        let after = frames.filter { $0.time >= lastHand }
        let forward = after.prefix(while: { $0.velocity > 0 })
        #expect(forward.count >= 10, "seed \(seed): \(forward.count) frames of coasting")
        for (a, b) in zip(forward, forward.dropFirst()) {
            #expect(b.offset > a.offset, "seed \(seed): frame at \(b.time) s stalls at \(b.offset)")
        }
        // Visible coasting begins within two of the hand's detent periods of its last detent.
        let handOffset = try #require(frames.last(where: { $0.time <= lastHand })?.offset ?? after.first?.offset)
        let moving = try #require(after.first(where: { $0.offset > handOffset + 0.05 }))
        #expect(moving.time - lastHand <= 2 * handPeriod, "seed \(seed): coasting visible \((moving.time - lastHand) * 1000) ms after the last detent")
        // The detents the coast passes are reported as it passes them, not in a burst when the
        // release is decided: never two at one instant, each no later than a frame showing it.
        // (While the hand turns, an accelerated detent is several steps at its own instant.)
        let moved = run.messages("tempo", phase: "moved").compactMap { m -> (time: Double, value: Double)? in
            guard let t = m["time"]?.doubleValue, let v = m["value"]?.doubleValue else { return nil }
            return (t, v)
        }
        let coasting = moved.filter { $0.time > lastHand }
        #expect(coasting.count >= 3, "seed \(seed): the coast passes detents")
        for (a, b) in zip(coasting, coasting.dropFirst()) {
            #expect(b.time > a.time, "seed \(seed): detents \(a.value) and \(b.value) both at \(b.time) s")
        }
        for detent in moved where detent.time > lastHand {
            let shown = frames.first(where: { $0.offset >= detent.value - 0.5 })
            #expect(shown.map { detent.time <= $0.time + 1e-9 + 1.0 / 60 } ?? false, "seed \(seed): detent \(detent.value) at \(detent.time) s")
        }
        // The hand-over counts each detent once: the tempo lands where the coast's frames end.
        let settled = try #require(run.messages("tempo", phase: "settled").last?["value"]?.doubleValue)
        #expect(abs((frames.last?.offset ?? 0) - settled) < 0.05)
    }
}
