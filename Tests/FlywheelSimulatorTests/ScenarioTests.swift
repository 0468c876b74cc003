import FlywheelCore
import FlywheelSimulator
import Testing

@Suite struct ScenarioTests {
    @Test func everyExampleScenarioParsesAndRuns() throws {
        let files = try Fixtures.files(in: "hardware/scenarios", ending: ".sim")
        #expect(files.count >= 3)
        for file in files {
            let scenario = try Fixtures.scenario(String(file.dropLast(4)))
            #expect(!scenario.name.isEmpty)
            #expect(!scenario.notes.isEmpty)
            #expect(!scenario.steps.isEmpty)
            let profile = try Fixtures.profile(scenario.device)
            let result = try Simulation(scenario: scenario, profile: profile).run()
            let decoder = Fixtures.decode(result.contactTrace, result.profile)
            #expect(decoder.detents.count == result.truthDetents, "\(file)")
            #expect(decoder.invalidTransitions == 0, "\(file)")
        }
    }

    @Test func bouncyKnob() throws {
        let scenario = try Fixtures.scenario("bouncy-knob")
        #expect(scenario.name == "bouncy knob")
        #expect(scenario.notes.hasPrefix("A worn EC11 with heavy contact bounce"))
        #expect(scenario.device == "ec11")
        #expect(scenario.seed == 42)
        #expect(scenario.bounce == BounceSettings(toggles: 0...8, windowNanoseconds: 50_000...3_000_000))
        #expect(scenario.chatter == .on(ChatterSettings(ratePerSecond: 2, widthNanoseconds: 20_000...200_000)))
        #expect(scenario.steps.first == ScenarioStep(gesture: .turn(detents: 5, speed: 10), line: 11))
        #expect(scenario.steps.map(\.gesture).contains(.wiggle(fraction: 0.4, speed: 3)))
        #expect(scenario.steps.map(\.gesture).contains(.flick(velocity: 30)))
        #expect(scenario.steps.map(\.gesture).contains(.jitter(amplitude: 0.2, nanoseconds: 300_000_000)))
    }

    @Test func commandsAndSettings() throws {
        let text = """
            # name: all forms
            # notes: one
            # notes: two
            device ec11
            seed 0x10
            bounce off
            chatter off
            friction 4/s
            counter 7
            turn 3
            turn -2 at 12.5/s   # trailing comment
            flick -40/s
            hold 1.5s
            hold 250us
            wiggle -0.3 at 2/s
            jitter 0.05 for 80ms
            press BTN_0
            release
            """
        let scenario = try Scenario.parse(text, file: "forms.sim")
        #expect(scenario.name == "all forms")
        #expect(scenario.notes == "one two")
        #expect(scenario.seed == 16)
        #expect(scenario.bounce == BounceSettings.none)
        #expect(scenario.chatter == .off)
        #expect(scenario.friction == 4)
        #expect(scenario.counterStart == 7)
        #expect(
            scenario.steps.map(\.gesture) == [
                .turn(detents: 3, speed: 8), .turn(detents: -2, speed: 12.5), .flick(velocity: -40),
                .hold(nanoseconds: 1_500_000_000), .hold(nanoseconds: 250_000), .wiggle(fraction: -0.3, speed: 2),
                .jitter(amplitude: 0.05, nanoseconds: 80_000_000), .press(button: KeyCode.btn0), .release(button: nil),
            ])
        #expect(scenario.steps.map(\.line) == Array(10...18))
    }

    func message(_ text: String) -> String {
        do {
            _ = try Scenario.parse(text, file: "hardware/scenarios/bad.sim")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func errorsNameFileLineAndWhatWasExpected() {
        #expect(
            message("device ec11\nturn five at 10/s")
                == "hardware/scenarios/bad.sim line 2: expected 'turn ±N at V/s' with N a non-zero whole number and V above 0 and at most 10000 detents per second, got 'turn five at 10/s'.")
        #expect(
            message("device ec11\n\nturn +2 at fast")
                == "hardware/scenarios/bad.sim line 3: expected 'turn ±N at V/s' with N a non-zero whole number and V above 0 and at most 10000 detents per second, got 'turn +2 at fast'.")
        #expect(
            message("device ec11\nwiggle 0.5")
                == "hardware/scenarios/bad.sim line 2: expected 'wiggle ±F [at V/s]' with F a fraction of a detent, 0 < |F| < 0.5, and V above 0 and at most 10000 detents per second, got 'wiggle 0.5'.")
        #expect(
            message("device ec11\nhold 200")
                == "hardware/scenarios/bad.sim line 2: expected 'hold DURATION' with a unit s, ms, us or ns (such as 'hold 200ms'), got 'hold 200'.")
        #expect(
            message("device ec11\njitter 0.6 for 1s")
                == "hardware/scenarios/bad.sim line 2: expected 'jitter A for DURATION' with 0 < A < 0.5 detents (such as 'jitter 0.1 for 300ms'), got 'jitter 0.6 for 1s'.")
        #expect(
            message("device ec11\nflick 30")
                == "hardware/scenarios/bad.sim line 2: expected 'flick ±V/s' with V a non-zero speed of at most 10000 detents per second (such as 'flick +30/s'), got 'flick 30'.")
        #expect(
            message("device ec11\nspin +3").hasPrefix(
                "hardware/scenarios/bad.sim line 2: expected a command (turn, flick, hold, wiggle, jitter, press, release)"))
        #expect(
            message("device ec11\nturn +1\nseed 4")
                == "hardware/scenarios/bad.sim line 3: expected a command, got the setting 'seed' (settings come before the first command).")
        #expect(
            message("device ec11\nseed 1\nseed 2")
                == "hardware/scenarios/bad.sim line 3: expected each setting once, got a second 'seed' (the first is on line 2).")
        #expect(
            message("device ec11\nbounce toggles 0..6")
                == "hardware/scenarios/bad.sim line 2: expected 'bounce toggles LOW..HIGH window SHORTEST..LONGEST' with at most 100 toggles (such as 'bounce toggles 0..6 window 0.05ms..3ms') or 'bounce off', got 'bounce toggles 0..6'.")
        #expect(
            message("# name: nothing\nturn +1")
                == "hardware/scenarios/bad.sim line 2: expected a 'device <profile-id>' line, but the file has none.")
        #expect(
            message("device ec11\npress BTN_WHAT")
                == "hardware/scenarios/bad.sim line 2: expected 'press' or 'press KEY' with KEY a key name such as BTN_0, got 'press BTN_WHAT'.")
    }

    @Test func simulationChecksTheScenarioAgainstTheDevice() throws {
        let ec11 = try Fixtures.profile("ec11")
        func message(_ text: String, _ profile: DeviceProfile) -> String {
            do {
                _ = try Simulation(scenario: Scenario.parse(text, file: "s.sim"), profile: profile)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message("device powermate\nturn +1", ec11) == "s.sim line 1: expected device 'ec11' (the profile given), got 'powermate'.")
        #expect(message("device ec11\nrelease", ec11) == "s.sim line 2: expected a press of BTN_0 first, as it is already up.")
        #expect(message("device ec11\npress\npress", ec11) == "s.sim line 3: expected a release of BTN_0 first, as it is already down.")
        #expect(message("device ec11\npress BTN_5", ec11) == "s.sim line 2: expected one of the buttons of 'ec11' (BTN_0), got BTN_5.")
        var noButtons = ec11
        noButtons.buttons = []
        #expect(message("device ec11\n\npress", noButtons) == "s.sim line 3: expected a device with a button for 'press', but 'ec11' has none.")
    }

    @Test func randomScenariosRoundTripThroughText() throws {
        let profile = try Fixtures.profile("shuttlexpress")
        for seed in UInt64(1)...50 {
            let scenario = Scenario.random(seed: seed, profile: profile, gestures: 12)
            let parsed = try Scenario.parse(scenario.text, file: scenario.file)
            #expect(parsed.steps.map(\.gesture) == scenario.steps.map(\.gesture))
            #expect(parsed.seed == scenario.seed)
            #expect(parsed.bounce == scenario.bounce)
            #expect(parsed.chatter == scenario.chatter)
            #expect(parsed.name == scenario.name)
            #expect(parsed.notes == scenario.notes)
            #expect(parsed.device == profile.id)
            _ = try Simulation(scenario: parsed, profile: profile)  // presses and releases balance
        }
    }
}
