import FlywheelCore
import Testing
@testable import FlywheelDaemon

/// `controls.<control>.acceleration` and `devices[].acceleration` (issue 34), and the old
/// `acceleration: false`, now `inertia: false`.
@Suite("Configuration: acceleration and inertia")
struct AccelerationConfigurationTests {
    static func parse(_ text: String) throws -> FlywheelConfiguration { try ConfigurationMistakesTests.configuration(text) }
    static func error(_ text: String) -> String? { ConfigurationMistakesTests.error(text) }

    @Test("per control: a preset or a curve; the defaults accelerate tempo and volume, not the scrub")
    func controls() throws {
        let defaults = try Self.parse("{}")
        #expect(defaults.acceleration(for: .tempo) == .gentle && defaults.acceleration(for: .volume) == .gentle)
        #expect(defaults.acceleration(for: .scrub) == .off)
        let config = try Self.parse("""
            { controls: { tempo: { acceleration: { curve: [[6, 1], [20, 3], [60, 8]] } },
                          volume: { acceleration: "off" }, scrub: { acceleration: "strong" } } }
            """)
        #expect(config.acceleration(for: .tempo).points == [.init(speed: 6, factor: 1), .init(speed: 20, factor: 3), .init(speed: 60, factor: 8)])
        #expect(config.acceleration(for: .volume) == .off && config.acceleration(for: .scrub) == .strong)
        let core = DaemonCore(configuration: config)
        #expect(core.tempo.knob.acceleration == config.acceleration(for: .tempo))
        #expect(core.volume.knob.acceleration == .off && core.scrub.acceleration == .strong)
    }

    @Test("per device: inertia and a curve of its own, before its control's")
    func device() throws {
        let config = try Self.parse("{ devices: [{ profile: 'ec11', inertia: false, acceleration: { curve: [[5, 1], [30, 6]] } }, { profile: 'powermate' }] }")
        #expect(config.devices[0].knobOptions.inertia == false)
        #expect(config.devices[0].knobOptions.acceleration?.points.last == .init(speed: 30, factor: 6))
        #expect(config.devices[1].knobOptions == KnobOptions())
        #expect(config.notices.isEmpty)
    }

    @Test("the old acceleration: false is accepted for one release as inertia: false, with a warning naming the new key")
    func oldKey() throws {
        let config = try Self.parse("{ devices: [\n{ profile: 'ec11',\nacceleration: false }] }")
        #expect(config.devices[0].knobOptions.inertia == false)
        #expect(config.devices[0].knobOptions.acceleration == .off, "as before, every detent is one step")
        let warnings = ConfigurationWarnings.warnings(in: config, exists: { _ in true }, chipExists: { _ in true }).map(\.description)
        #expect(warnings.last?.hasPrefix("f.json5 line 3: key 'devices[0].acceleration' as true or false is the old name of 'inertia': write inertia: false, acceleration: \"off\"") == true, "\(warnings)")
        let on = try Self.parse("{ devices: [{ profile: 'ec11', acceleration: true }] }")
        #expect(on.devices[0].knobOptions == KnobOptions() && on.notices.count == 1)
        #expect(Self.error("{ devices: [\n{ profile: 'ec11', inertia: true,\nacceleration: false }] }")?
            .hasPrefix("f.json5 line 3: key 'devices[0].acceleration' is the old name of 'inertia'") == true)
    }

    @Test("a bad curve is named with the file, the line and the key")
    func bad() {
        #expect(Self.error("{ controls: { tempo: {\nacceleration: 'fast' } } }")
            == "f.json5 line 2: key 'controls.tempo.acceleration' must be \"off\", \"gentle\", \"strong\" or { curve: [[SPEED, FACTOR], …] } (detents per second, steps per detent), got \"fast\".")
        #expect(Self.error("{ controls: { volume: { acceleration: {\ncurve: [[10, 2], [5, 3]] } } } }")
            == "f.json5 line 2: key 'controls.volume.acceleration.curve' point 2 is not faster than point 1: speeds must increase.")
        #expect(Self.error("{ devices: [{ profile: 'ec11', acceleration: {\ncurve: [[10, 0.5]] } }] }")
            == "f.json5 line 2: key 'devices[0].acceleration.curve' point 1 has the factor 0.5: factors are steps per detent from 1 to 100.")
        #expect(Self.error("{ controls: { tempo: { acceleration: {\ncurve: [10, 2] } } } }")?
            .hasPrefix("f.json5 line 2: key 'controls.tempo.acceleration.curve' must be a list of [SPEED, FACTOR] pairs") == true)
        #expect(Self.error("{ controls: { tempo: {\nacceleration: { points: [] } } } }")?
            .hasPrefix("f.json5 line 2: unknown key 'controls.tempo.acceleration.points'") == true)
    }
}
