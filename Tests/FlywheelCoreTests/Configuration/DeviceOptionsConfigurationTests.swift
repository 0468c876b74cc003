import Testing
@testable import FlywheelCore

@Suite("Configuration: a device's own knob options and button gestures")
struct DeviceOptionsConfigurationTests {
    static func parse(_ text: String) throws(FileLineError) -> FlywheelConfiguration {
        try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
    }

    /// The error `text` gives.
    static func error(_ text: String) -> String? {
        do throws(FileLineError) {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("invert, detents_per_step, inertia, acceleration and a button's long and double presses are read per device")
    func read() throws {
        let config = try Self.parse("""
            { devices: [
                { profile: "ec11", invert: true, detents_per_step: 4, inertia: false, acceleration: "strong",
                  buttons: { "256": { press: "none", long: "mode", double: "tap" }, BTN_1: "tap" } },
                { profile: "powermate" },
            ] }
            """)
        let fine = config.devices[0]
        #expect(fine.knobOptions == KnobOptions(invert: true, detentsPerStep: 4, inertia: false, acceleration: .strong))
        #expect(config.notices.isEmpty)
        #expect(fine.buttonActions[256] == ButtonAction.none)
        #expect(fine.buttonGestures[256] == ButtonGestures(long: .mode, double: .tap))
        #expect(fine.buttonActions[KeyCode.button(named: "BTN_1")!] == .tap)
        #expect(fine.buttonGestures.count == 1)
        #expect(config.devices[1].knobOptions == KnobOptions())
        #expect(config.devices[1].buttonGestures.isEmpty)
    }

    @Test("bad values are named with the file, the line and the key")
    func bad() {
        #expect(Self.error("{ devices: [\n{ profile: 'ec11',\ndetents_per_step: 0 }] }")
            == "f.json5 line 3: key 'devices[0].detents_per_step' must be from 1 to 64, got 0.")
        #expect(Self.error("{ devices: [\n{ profile: 'ec11', invert: 'yes' }] }")
            == "f.json5 line 2: key 'devices[0].invert' must be true or false, got a string.")
        #expect(Self.error("{ devices: [\n{ profile: 'ec11', inertia: 1 }] }")
            == "f.json5 line 2: key 'devices[0].inertia' must be true or false, got a number.")
        #expect(Self.error("{ devices: [{ profile: 'ec11', buttons: {\n'256': { long: 'hold-tempo' } } }] }")
            == "f.json5 line 2: key 'devices[0].buttons.256.long' must be one of \"mode\", \"tap\", \"none\", got \"hold-tempo\".")
        #expect(Self.error("{ devices: [{ profile: 'ec11', buttons: {\n'256': { press: 'hold-scrub', double: 'mode' } } }] }")?
            .hasPrefix("f.json5 line 2: key 'devices[0].buttons.256.press' cannot be a hold-* action") == true)
        #expect(Self.error("{ devices: [{ profile: 'ec11', buttons: {\n'256': { triple: 'mode' } } }] }")
            == "f.json5 line 2: unknown key 'devices[0].buttons.256.triple'; the keys of 'devices[0].buttons.256' are press, long, double.")
        #expect(Self.error("{ controls: { buttons: {\n'256': { long: 'mode' } } } }")?
            .hasPrefix("f.json5 line 2: key 'controls.buttons.256' must be an action") == true)
    }
}
