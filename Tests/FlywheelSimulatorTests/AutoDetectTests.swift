import FlywheelCore
import FlywheelSimulator
import Testing

/// Steps-per-detent detection on simulated encoders that are turned and left to rest, with bounce.
@Suite("Steps-per-detent detection on simulated knobs")
struct AutoDetectTests {
    @Test("turns and holds reveal 1, 2 and 4 steps per detent", arguments: StepsPerDetent.allCases)
    func detects(_ steps: StepsPerDetent) throws {
        let profile = try Fixtures.encoder(stepsPerDetent: steps)
        var hits = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            // Odd detent counts, so a two-step encoder rests on both 00 and 11, and a one-step one on all four.
            let script = """
                bounce toggles 0..6 window 0.05ms..3ms
                turn +3 at 12/s
                hold 400ms
                turn -1 at 8/s
                hold 300ms
                turn +5 at 20/s
                hold 500ms
                turn -3 at 10/s
                hold 350ms
                turn +1 at 6/s
                hold 450ms
                turn +2 at 15/s
                hold 250ms
                """
            let result = try Fixtures.run(script, profile: profile, seed: seed)
            let estimate = StepsPerDetentDetector.detect(result.gpioTrace, end: result.endNanoseconds)
            if estimate.stepsPerDetent == steps { hits += 1 }
            #expect(estimate.confidence > 0 && estimate.confidence <= 1)
        }
        #expect(hits == 20, "detected \(steps) steps per detent in \(hits) of 20 runs")
    }

    /// Detection as `flywheel decode --steps-per-detent auto` runs it: over the edges alone, the
    /// recording's end unknown.
    static func detect(_ script: String, _ steps: StepsPerDetent, seed: UInt64) throws -> StepsPerDetentDetector.Estimate {
        let result = try Fixtures.run(script, profile: try Fixtures.encoder(stepsPerDetent: steps), seed: seed)
        return StepsPerDetentDetector.detect(result.gpioTrace)
    }

    @Test("a 2-step knob turned +3 and back rests on 00 and 11: 2, never 4", arguments: 1...6)
    func twoStepBackAndForth(seed: UInt64) throws {
        let estimate = try Self.detect("turn +3 at 4/s\nhold 1s\nturn -3 at 4/s\nhold 1s\n", .two, seed: seed)
        #expect(estimate.stepsPerDetent == .two, "seed \(seed): \(estimate)")
        #expect(estimate.confidence >= 0.75)
    }

    @Test("a 1-step knob clicked and held on every state: 1, confidently, even when one hold is long", arguments: 1...6)
    func oneStepClicks(seed: UInt64) throws {
        let even = try Self.detect(String(repeating: "turn +1 at 5/s\nhold 600ms\n", count: 5), .one, seed: seed)
        #expect(even.stepsPerDetent == .one && even.confidence >= 0.9, "seed \(seed): \(even)")
        let longHold = try Self.detect(
            "turn +2 at 4/s\nhold 2s\n" + String(repeating: "turn +1 at 4/s\nhold 300ms\n", count: 3), .one, seed: seed)
        #expect(longHold.stepsPerDetent == .one && longHold.confidence >= 0.75, "seed \(seed): \(longHold)")
    }

    @Test("one turn between two rests on the same state cannot tell 4 from 2: no verdict", arguments: [StepsPerDetent.two, .four])
    func ambiguous(_ steps: StepsPerDetent) throws {
        let estimate = try Self.detect("turn +2 at 6/s\nhold 1s\n", steps, seed: 1)
        #expect(estimate.stepsPerDetent == nil, "\(estimate)")
        #expect(estimate.confidence < 0.75)
    }
}
