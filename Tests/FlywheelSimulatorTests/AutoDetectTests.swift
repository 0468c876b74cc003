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
}
