import FlywheelCore
import FlywheelSimulator
import Testing

@Suite struct ContactTests {
    @Test func sameSeedGivesAnIdenticalSimulation() throws {
        let scenario = try Fixtures.scenario("bouncy-knob")
        let profile = try Fixtures.profile("ec11")
        let first = try Simulation(scenario: scenario, profile: profile).run()
        let second = try Simulation(scenario: scenario, profile: profile).run()
        #expect(first == second)
        #expect(first.contactTrace.edges.count > 100)
    }

    @Test func differentSeedGivesDifferentBounceButTheSameTruth() throws {
        let scenario = try Fixtures.scenario("bouncy-knob")
        let profile = try Fixtures.profile("ec11")
        let one = try Simulation(scenario: scenario, profile: profile, seed: 1).run()
        let two = try Simulation(scenario: scenario, profile: profile, seed: 2).run()
        #expect(one.contactTrace != two.contactTrace)
        #expect(one.contactTrace.edges.count != two.contactTrace.edges.count)
        #expect(one.truthDetents == two.truthDetents)
        #expect(Fixtures.decode(one.contactTrace, profile).detents == Fixtures.decode(two.contactTrace, profile).detents)
    }

    @Test func wiggleAloneMovesTheContactsButNoDetent() throws {
        let profile = try Fixtures.profile("ec11")
        let result = try Fixtures.run(
            "bounce toggles 2..6 window 0.05ms..3ms\nwiggle 0.45\nwiggle -0.45\nwiggle 0.3 at 1/s", profile: profile)
        #expect(result.truthDetents == 0)
        #expect(result.contactTrace.edges.count >= 12)  // 0.45 reaches two quarter steps each way
        let decoder = Fixtures.decode(result.contactTrace, profile)
        #expect(decoder.detents == 0)
        #expect(decoder.quarterSteps == 0)
        #expect(decoder.invalidTransitions == 0)
    }

    @Test func turnOfSixWithBounceDecodesToSix() throws {
        let profile = try Fixtures.profile("ec11")
        let result = try Fixtures.run("bounce toggles 4..8 window 0.5ms..3ms\nturn +6 at 10/s", profile: profile)
        #expect(result.truthDetents == 6)
        #expect(result.transitions.count == 24)
        #expect(result.contactTrace.edges.count >= 24 + 24 * 4)  // every change bounced
        for trace in [result.contactTrace, result.gpioTrace] {
            let decoder = Fixtures.decode(trace, profile)
            #expect(decoder.detents == 6)
            #expect(decoder.invalidTransitions == 0)
        }
    }

    @Test func bounceEndsAtTheIntendedLevelAndNeverSharesANanosecond() throws {
        let profile = try Fixtures.profile("ec11")
        let result = try Fixtures.run(
            "bounce toggles 0..10 window 0.05ms..3ms\nchatter 50/s width 5us..50us\nturn +3 at 80/s\nhold 300ms\nflick -60/s",
            profile: profile)
        let edges = result.contactTrace.edges
        #expect(zip(edges, edges.dropFirst()).allSatisfy { $0.timeNanoseconds < $1.timeNanoseconds })
        // Between two intended transitions, the changing line toggles an even number of extra
        // times, so the levels just before each transition are those of the previous one.
        var levels = result.contactTrace.initial
        var next = 0
        for edge in edges {
            if next < result.transitions.count, edge.timeNanoseconds == result.transitions[next].timeNanoseconds {
                let previousIndex = next == 0 ? 0 : result.transitions[next - 1].index
                #expect(levels == QuadratureContacts.levels(atIndex: previousIndex, rest: profile.rest))
                next += 1
            }
            levels = levels.setting(edge.line, to: edge.level)
        }
        #expect(next == result.transitions.count)
        #expect(levels == QuadratureContacts.levels(atIndex: result.truthDetents * 4, rest: profile.rest))
    }

    @Test func gpioTimestampsComeLaterInTheSameOrder() throws {
        let profile = try Fixtures.profile("ec11")
        let result = try Fixtures.run("turn +4 at 30/s\nwiggle 0.4", profile: profile)
        let contacts = result.contactTrace.edges
        let gpio = result.gpioTrace.edges
        #expect(contacts.count == gpio.count)
        for (contact, stamped) in zip(contacts, gpio) {
            #expect(contact.line == stamped.line && contact.level == stamped.level)
            #expect(stamped.timeNanoseconds > contact.timeNanoseconds)
        }
        #expect(zip(gpio, gpio.dropFirst()).allSatisfy { $0.timeNanoseconds < $1.timeNanoseconds })
    }

    @Test func buttonBounceIsDebounced() throws {
        let profile = try Fixtures.profile("ec11")
        let result = try Fixtures.run(
            "bounce toggles 4..6 window 1ms..3ms\npress\nhold 100ms\nrelease\nhold 50ms\npress\nrelease", profile: profile)
        #expect(result.truthPresses == 2)
        #expect(result.buttonEdges.count > 4 + 8)  // raw contact bounces
        #expect(result.debouncedButtonEdges.map(\.pressed) == [true, false, true, false])
        let keys = result.gpioKeyEvents.filter { $0.type == EventType.key }
        #expect(keys.map(\.value) == [1, 0, 1, 0])
        #expect(keys.allSatisfy { $0.code == KeyCode.btn0 })
        #expect(result.gpioKeyEvents.filter { $0.type == EventType.syn }.count == 4)
    }
}
