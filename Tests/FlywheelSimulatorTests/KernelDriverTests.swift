import FlywheelCore
import FlywheelSimulator
import Testing

@Suite struct KernelDriverTests {
    static let cleanScript = """
        bounce off
        turn +5 at 10/s
        hold 100ms
        turn -8 at 30/s
        flick +20/s
        hold 50ms
        turn +2 at 3/s
        wiggle 0.2
        """

    @Test(arguments: StepsPerDetent.allCases)
    func cleanTraceEqualsTruth(stepsPerDetent: StepsPerDetent) throws {
        let profile = try Fixtures.encoder(stepsPerDetent: stepsPerDetent, report: .rotaryEncoderRelative)
        let result = try Fixtures.run(Self.cleanScript, profile: profile)
        let values = result.inputEvents.filter { $0.type == EventType.rel }
        #expect(values.allSatisfy { $0.code == RelCode.x && abs($0.value) == 1 })
        #expect(values.reduce(0) { $0 + Int($1.value) } == result.truthDetents)
        #expect(result.truthDetents != 0)
        // Every value is followed by SYN_REPORT at the same time.
        for (i, event) in result.inputEvents.enumerated() where event.type == EventType.rel {
            #expect(result.inputEvents[i + 1] == InputEvent.synReport(at: event.timeNanoseconds))
        }
    }

    /// Why Flywheel exists. The example scenario `kernel-false-step.sim` (EC11 on the kernel
    /// driver, full-period mode, bounce 2..6 toggles in 0.1..2 ms, seed 11) turns +4, wiggles 0.45
    /// and 0.42 of a detent forward and back, and turns −2: truth +2. Flywheel's decoder counts
    /// +2 from the same GPIO edges (0 invalid transitions). The driver reports
    /// +1 +1 +1 +1, then −1 after each wiggle (it armed at the half-way state 00 and came back
    /// through 10 to rest at 11, so it took the return for a step), then −1 −1: a sum of 0.
    @Test func fullPeriodModeCountsFalseStepsOnPartStepWiggles() throws {
        let scenario = try Fixtures.scenario("kernel-false-step")
        let profile = try Fixtures.profile("rotary-encoder")
        let result = try Simulation(scenario: scenario, profile: profile).run()
        let values = result.inputEvents.filter { $0.type == EventType.rel }.map { Int($0.value) }
        #expect(result.truthDetents == 2)
        #expect(values == [1, 1, 1, 1, -1, -1, -1, -1])
        #expect(values.reduce(0, +) == 0)
        let decoder = Fixtures.decode(result.gpioTrace, profile)
        #expect(decoder.detents == 2)
        #expect(decoder.invalidTransitions == 0)
    }

    @Test func fullPeriodFalseStepNeedsTheHalfWayState() throws {
        // A wiggle to 0.3 of a detent reaches only one quarter step: not armed, nothing reported.
        // One to 0.4 reaches the half-way state and is counted as a step back.
        let profile = try Fixtures.profile("rotary-encoder")
        let shallow = try Fixtures.run("bounce toggles 2..6 window 0.1ms..2ms\nwiggle 0.3", profile: profile)
        #expect(shallow.inputEvents.isEmpty)
        let deep = try Fixtures.run("bounce toggles 2..6 window 0.1ms..2ms\nwiggle 0.4", profile: profile)
        #expect(deep.inputEvents.filter { $0.type == EventType.rel }.map(\.value) == [-1])
        #expect(Fixtures.decode(deep.gpioTrace, profile).detents == 0)
    }

    @Test func absoluteAxisClampsOrRollsOver() throws {
        var profile = try Fixtures.encoder(stepsPerDetent: .four, report: .rotaryEncoderAbsolute)
        profile.countsPerTurn = 20
        let clamped = try Fixtures.run("bounce off\nturn +25 at 50/s\nturn -3 at 50/s", profile: profile)
        let values = clamped.inputEvents.filter { $0.type == EventType.abs }.map(\.value)
        #expect(values.max() == 20)
        #expect(values.last == 17)
        #expect(values.count == 23)  // nothing is sent while clamped at 20

        profile.rollover = true
        let rolled = try Fixtures.run("bounce off\nturn +25 at 50/s\nturn -7 at 50/s", profile: profile)
        let wrapped = rolled.inputEvents.filter { $0.type == EventType.abs }.map(\.value)
        #expect(wrapped.max() == 19)
        #expect(Array(wrapped.prefix(21).suffix(2)) == [0, 1])  // 19 → 0 → 1
        #expect(wrapped.last == 18)  // 25 mod 20 = 5, then 7 back through 0 to 18
    }
}
