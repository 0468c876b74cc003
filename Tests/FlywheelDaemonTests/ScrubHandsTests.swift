import FlywheelCore
import Testing

/// A detented knob's scrub seeks: a slow turn, a single click and a short flick all commit, once
/// per rest, where the knob came to rest.
@Suite("Hands: scrubbing a podcast with a detented knob")
struct ScrubHandsTests {
    /// A 43:56 podcast at 100 s: 13.18 s a detent.
    static let durationSeconds = 2636.0
    static let secondsPerDetent = 2636.0 / 200

    static func scrub(_ script: String, seed: UInt64) throws -> Hands.Run {
        try Hands.run(
            script, profile: try Hands.profile("ec11"), seed: seed, control: .scrub, durationSeconds: durationSeconds,
            positionSeconds: 100)
    }

    @Test("a slow turn (+5 at 4/s) is one scrub that commits 5 detents on", arguments: 1...8)
    func slowTurn(seed: UInt64) throws {
        let run = try Self.scrub("turn +5 at 4/s\nhold 1s\n", seed: seed)
        #expect(run.messages("scrub", phase: "cancelled").isEmpty, "seed \(seed)")
        #expect(run.messages("scrub", phase: "began").count == 1, "seed \(seed)")
        let commits = run.messages("scrub", phase: "committed")
        #expect(commits.count == 1, "seed \(seed): \(commits.map { $0.encoded() })")
        let position = try #require(commits.last?["position"]?.doubleValue)
        #expect(abs(position - (100 + 5 * Self.secondsPerDetent)) < 1e-6, "seed \(seed): committed at \(position)")
    }

    @Test("a single click seeks one detent", arguments: 1...8)
    func click(seed: UInt64) throws {
        let run = try Self.scrub("turn +1 at 4/s\nhold 1s\n", seed: seed)
        let commits = run.messages("scrub", phase: "committed")
        #expect(commits.count == 1 && run.messages("scrub", phase: "cancelled").isEmpty, "seed \(seed)")
        #expect(abs((commits.last?["position"]?.doubleValue ?? 0) - (100 + Self.secondsPerDetent)) < 1e-6)
    }

    @Test("a short flick (+3 at 20/s) commits where it lands, never rolls back", arguments: 1...8)
    func shortFlick(seed: UInt64) throws {
        let run = try Self.scrub("turn +3 at 20/s\nhold 2s\n", seed: seed)
        #expect(run.messages("scrub", phase: "cancelled").isEmpty, "seed \(seed)")
        let commits = run.messages("scrub", phase: "committed")
        #expect(commits.count == 1, "seed \(seed)")
        let moved = run.messages("scrub", phase: "moved")
        let landed = try #require(moved.last?["position"]?.doubleValue)
        #expect(commits.last?["position"]?.doubleValue == landed)
        #expect(landed >= 100 + 3 * Self.secondsPerDetent - 1e-6)
    }

    @Test("turns separated by a pause commit once each: one seek per rest, not per detent")
    func twoTurns() throws {
        let run = try Self.scrub("turn +3 at 4/s\nhold 1500ms\nturn -2 at 4/s\nhold 1s\n", seed: 3)
        let commits = run.messages("scrub", phase: "committed").compactMap { $0["position"]?.doubleValue }
        #expect(commits.count == 2)
        #expect(abs((commits.last ?? 0) - (100 + Self.secondsPerDetent)) < 1e-6)
    }
}
