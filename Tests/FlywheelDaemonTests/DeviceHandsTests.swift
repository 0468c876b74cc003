import FlywheelCore
import Testing

/// Several knobs, each with its own engine: two devices on one control add their detents, and
/// neither's release, coast or rest ends the other's gesture.
@Suite("Hands: two knobs on one control")
struct DeviceHandsTests {
    static func tempo(_ run: Hands.Run) -> Int? { run.messages("tempo").last?["bpm"].flatMap { $0.doubleValue }.map { Int($0) } }

    /// The tempo's `began` and `settled` alternate: no gesture begins before the last one settled.
    static func alternates(_ run: Hands.Run) -> Bool {
        let phases = run.messages("tempo").compactMap { $0["phase"]?.stringValue }.filter { $0 == "began" || $0 == "settled" }
        return !phases.isEmpty && phases.count % 2 == 0 && phases.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "began" : "settled") }
    }

    /// Two ec11 knobs on the tempo, `first` on event1 and `second` on event2: each run alone, then
    /// both at once, which must end on the sum of what each did alone with the control's gestures
    /// alternating. Returns what each did alone and the run together.
    static func expectSum(_ first: String, _ second: String, seed: UInt64) throws -> (alone: [Int], together: Hands.Run) {
        let ec11 = try Hands.profile("ec11")
        let hands = [
            Hands.Hand(script: first, profile: ec11, seed: seed, device: Hands.knob("/dev/input/event1")),
            Hands.Hand(script: second, profile: ec11, seed: seed + 100, device: Hands.knob("/dev/input/event2")),
        ]
        let alone = try hands.map { hand in try #require(tempo(try Hands.run([hand]))) }
        let both = try Hands.run(hands)
        #expect(tempo(both) == alone[0] + alone[1] - 120, "seed \(seed): alone \(alone), together \(tempo(both) ?? 0)")
        let alternating = alternates(both)
        #expect(alternating, "seed \(seed): a gesture began before the last one settled")
        return (alone, both)
    }

    @Test("a flick on one knob and a click against it on the other while it coasts: the tempo moves by the sum", arguments: 1...4)
    func flickAndClickAgainst(seed: UInt64) throws {
        let (alone, both) = try Self.expectSum("turn +10 at 40/s\nhold 3s\n", "hold 0.4s\nturn -1 at 4/s\nhold 3s\n", seed: seed)
        #expect(alone[0] > 125 && alone[1] == 119, "seed \(seed): alone \(alone)")
        // One gesture on the control while either knob moves: it began once and settled once.
        #expect(both.messages("tempo", phase: "began").count == 1)
        #expect(both.messages("tempo", phase: "settled").count == 1)
    }

    @Test("a flick on one knob and a slow turn on the other while it coasts: the sum, gestures never merged", arguments: 1...4)
    func flickAndSlowTurn(seed: UInt64) throws {
        let (alone, _) = try Self.expectSum("turn +10 at 40/s\nhold 3s\n", "hold 0.3s\nturn +4 at 4/s\nhold 3s\n", seed: seed)
        #expect(alone[1] == 124, "seed \(seed): a slow turn of 4 detents alone ends at \(alone[1])")
    }

    @Test("two knobs turned at the same time, each at 5 detents/s: the sum of each alone", arguments: 1...4)
    func bothTurning(seed: UInt64) throws {
        let (alone, _) = try Self.expectSum("turn +6 at 5/s\nhold 3s\n", "hold 0.1s\nturn +6 at 5/s\nhold 3s\n", seed: seed)
        #expect(alone.allSatisfy { $0 >= 126 }, "seed \(seed): alone \(alone)")
    }

    @Test("two knobs turned slowly against each other in scrub mode: one seek, by the sum", arguments: 1...4)
    func slowScrubBothKnobs(seed: UInt64) throws {
        let ec11 = try Hands.profile("ec11")
        let up = Hands.Hand(script: "turn +6 at 4/s\nhold 2s\n", profile: ec11, seed: seed, device: Hands.knob("/dev/input/event1", control: .scrub))
        let down = Hands.Hand(
            script: "hold 0.1s\nturn -2 at 3/s\nhold 2s\n", profile: ec11, seed: seed + 100, device: Hands.knob("/dev/input/event2", control: .scrub))
        let run = try Hands.run([up, down], modes: [.scrub], durationSeconds: 2636, positionSeconds: 100)
        let secondsPerDetent = 2636.0 / 200
        #expect(run.messages("scrub", phase: "began").count == 1)
        #expect(run.messages("scrub", phase: "cancelled").isEmpty)
        let commits = run.messages("scrub", phase: "committed")
        #expect(commits.count == 1, "seed \(seed): \(commits.count) commits")
        let position = try #require(commits.last?["position"]?.doubleValue)
        #expect(abs(position - (100 + 4 * secondsPerDetent)) < 1e-6, "seed \(seed): committed at \(position)")
    }
}
