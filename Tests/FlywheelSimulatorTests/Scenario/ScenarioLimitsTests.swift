import FlywheelCore
import FlywheelSimulator
import Testing

/// A scenario read from a file cannot make its device produce more than 500,000 contact
/// edges: counted on the device (its quarter steps, bounce and chatter) before anything is
/// simulated, refused with the file, the line and the limit.
@Suite("Scenario limits")
struct ScenarioLimitsTests {
    /// The error checking the scenario's limits on `profile` throws, if any (nothing is simulated).
    static func error(_ text: String, profile: DeviceProfile) throws -> FileLineError? {
        let scenario = try Scenario.parse("device \(profile.id)\n" + text, file: "hostile.sim")
        do {
            try Simulation(scenario: scenario, profile: profile).checkLimits()
            return nil
        } catch let error as FileLineError {
            return error
        }
    }

    @Test("20,000 detents on an EC11 (4 quarter steps, up to 6 bounce toggles each: 560,000 edges) is refused on its line")
    func bouncyTurn() throws {
        let error = try Self.error("hold 1s\nturn +20000 at 10000/s\nhold 1s\n", profile: Fixtures.profile("ec11"))
        #expect(error?.file == "hostile.sim")
        #expect(error?.line == 3)
        #expect(error?.problem.contains("scenario limit of 500,000 contact edges") == true)
        #expect(error?.problem.contains("up to 6 bounce toggles") == true)
    }

    @Test("40,000 detents without bounce (160,000 edges), and the largest turn with two toggles a change, are within the limit")
    func within() throws {
        let ec11 = try Fixtures.profile("ec11")
        #expect(try Self.error("bounce off\nturn +40000 at 10000/s\n", profile: ec11) == nil)
        // 41,666 × 4 quarter steps × 3 edges = 499,992: the most edges a scenario can ask of an EC11.
        #expect(try Self.error("bounce toggles 2..2 window 0.05ms..0.5ms\nturn +41666 at 10000/s\n", profile: ec11) == nil)
        #expect(try Self.error("bounce toggles 2..2 window 0.05ms..0.5ms\nturn +41667 at 10000/s\n", profile: ec11)?.line == 3)
    }

    @Test("button presses count with their bounce: 100 toggles each, the 4,951st action crosses 500,000")
    func bouncyButtons() throws {
        let script = "bounce toggles 100..100 window 1ms..1ms\n" + String(repeating: "press\nrelease\n", count: 3_000)
        let error = try Self.error(script, profile: Fixtures.profile("ec11"))
        #expect(error?.line == 2 + 4_951)
        #expect(error?.problem.contains("500,000 contact edges") == true)
    }

    @Test("a profile's chatter counts over the scenario's time: a million pulses a second for 1 s is refused")
    func profileChatter() throws {
        var profile = try Fixtures.profile("ec11")
        profile.chatter = ChatterSettings(ratePerSecond: 1_000_000, widthNanoseconds: 1...1)
        let error = try Self.error("hold 1s\n", profile: profile)
        #expect(error?.line == 2)
        #expect(error?.problem.contains("chatter") == true)
    }

    @Test("the scenarios in hardware/ are within the limits on their own devices")
    func examplesWithin() throws {
        for file in try Fixtures.files(in: "hardware/scenarios", ending: ".sim") {
            let scenario = try Fixtures.scenario(String(file.dropLast(4)))
            try Simulation(scenario: scenario, profile: Fixtures.profile(scenario.device)).checkLimits()
        }
    }
}
