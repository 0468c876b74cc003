import FlywheelCore
import FlywheelSimulator
import Testing

/// The simulator's central promise: whatever the hand does and however the contacts bounce,
/// Flywheel's decoder recovers exactly the detents the knob came to rest on.
@Suite struct PropertyTests {
    static let scenarioCount = 1_000

    @Test(arguments: StepsPerDetent.allCases)
    func decoderRecoversTruthFromBouncyTraces(stepsPerDetent: StepsPerDetent) throws {
        let profile = try Fixtures.encoder(stepsPerDetent: stepsPerDetent)
        var failures: [String] = []
        var totalEdges = 0
        var wiggles = 0
        var nonZeroTruths = 0
        for index in 1...Self.scenarioCount {
            let seed = UInt64(index) &* 0x9E37_79B9 &+ UInt64(stepsPerDetent.rawValue)
            let scenario = Scenario.random(seed: seed, profile: profile, gestures: 8)
            let result = try Simulation(scenario: scenario, profile: profile).run()
            totalEdges += result.contactTrace.edges.count
            wiggles += scenario.steps.filter { if case .wiggle = $0.gesture { return true } else { return false } }.count
            if result.truthDetents != 0 { nonZeroTruths += 1 }
            for (name, trace) in [("contacts", result.contactTrace), ("gpio", result.gpioTrace)] {
                let decoder = Fixtures.decode(trace, profile)
                let strictlyIncreasing = zip(trace.edges, trace.edges.dropFirst()).allSatisfy {
                    $0.timeNanoseconds < $1.timeNanoseconds
                }
                if decoder.detents.count != result.truthDetents || decoder.invalidTransitions != 0
                    || decoder.quarterSteps.count != result.truthDetents * stepsPerDetent.rawValue
                    || decoder.levels != QuadratureLevels.atPhase(profile.rest.phase + result.truthDetents * stepsPerDetent.rawValue)
                    || !strictlyIncreasing
                {
                    failures.append(
                        "seed \(seed) \(name): truth \(result.truthDetents), decoded \(decoder.detents.count), "
                            + "invalid \(decoder.invalidTransitions), strictly increasing \(strictlyIncreasing)")
                }
            }
        }
        #expect(failures.count == 0, "first failures: \(failures.prefix(3))")
        // The scenarios really were hard: lots of bounce edges, wiggles, and real motion.
        #expect(totalEdges > Self.scenarioCount * 40)
        #expect(wiggles > Self.scenarioCount)
        #expect(nonZeroTruths > Self.scenarioCount / 2)
    }

    /// The kernel driver's half- and quarter-period modes only ever report on reaching a new
    /// stable state, so (unlike full-period mode) they are exact on bouncy traces too.
    @Test(arguments: [StepsPerDetent.one, .two])
    func kernelHalfAndQuarterPeriodModesAreExact(stepsPerDetent: StepsPerDetent) throws {
        let profile = try Fixtures.encoder(stepsPerDetent: stepsPerDetent, report: .rotaryEncoderRelative)
        var failures: [UInt64] = []
        for seed in UInt64(1)...200 {
            let scenario = Scenario.random(seed: seed, profile: profile, gestures: 8)
            let result = try Simulation(scenario: scenario, profile: profile).run()
            let sum = result.inputEvents.filter { $0.type == EventType.rel }.reduce(0) { $0 + Int($1.value) }
            if sum != result.truthDetents { failures.append(seed) }
        }
        #expect(failures.count == 0, "seeds where the sum of REL_X differs from the truth: \(failures.prefix(5))")
    }
}
