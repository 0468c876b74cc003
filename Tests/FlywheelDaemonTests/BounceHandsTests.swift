import FlywheelCore
import FlywheelSimulator
import Testing

/// Bounce is not motion: slow turns of bouncy encoders end exactly on the simulator's truth.
@Suite("Hands: bouncy encoders")
struct BounceHandsTests {
    @Test("a 1-step bouncy encoder turned +3 and back -3 slowly ends where it began, on every seed", arguments: 1...20)
    func backAndForth(seed: UInt64) throws {
        let script = "turn +3 at 4/s\nhold 1s\nturn -3 at 4/s\nhold 1s\n"
        let run = try Hands.run(script, profile: try Hands.oneStepEncoder(), seed: seed)
        #expect(run.simulation.truthDetents == 0)
        let settled = try #require(run.messages("tempo", phase: "settled").last)
        #expect(settled["bpm"]?.doubleValue == 120, "seed \(seed): settled at \(settled.encoded())")
        // One `moved` per detent the hand turned: the bounce moves nothing.
        #expect(run.messages("tempo", phase: "moved").count == 6, "seed \(seed)")
    }

    /// The bouncy encoders: 1, 2 and 4 quarter steps per detent.
    static func profile(_ steps: Int) throws -> DeviceProfile {
        switch steps {
        case 1: return try Hands.oneStepEncoder()
        case 2: return try Hands.profile("ec11e-30")
        default: return try Hands.profile("ec11")
        }
    }

    @Test("random slow gestures of bouncy 1-, 2- and 4-step encoders end on the simulator's truth", arguments: [1, 2, 4])
    func randomSlowGestures(steps: Int) throws {
        let profile = try Self.profile(steps)
        #expect(profile.stepsPerDetent.rawValue == steps)
        for seed in UInt64(1)...12 {
            var random = SplitMix(seed: seed &* 7919 &+ UInt64(steps))
            var script = ""
            for _ in 0..<random.next(in: 2...6) {
                let detents = random.next(in: 1...4) * (random.next(in: 0...1) == 0 ? -1 : 1)
                script += "turn \(detents > 0 ? "+" : "")\(detents) at \(random.next(in: 2...6))/s\n"
                script += "hold \(random.next(in: 300...900))ms\n"
            }
            let run = try Hands.run(script, profile: profile, seed: seed)
            let truth = run.simulation.truthDetents
            let final = run.messages("tempo").last?["value"]?.doubleValue.map { Int($0) } ?? 100
            #expect(final == 100 + truth, "\(steps)-step, seed \(seed): ended on \(final), truth \(100 + truth)\n\(script)")
        }
    }
}

/// A small seeded generator, so a failing case names its seed and replays exactly.
struct SplitMix {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
