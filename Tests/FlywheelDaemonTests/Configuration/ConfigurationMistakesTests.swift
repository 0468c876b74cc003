import FlywheelCore
import Glibc
import Testing
@testable import FlywheelDaemon

/// The mistakes a newcomer makes in a first configuration, each refused with the line, the column
/// where it helps, and the fix — or warned about when the device may simply not be there yet.
@Suite("Configuration mistakes")
struct ConfigurationMistakesTests {
    /// The error parsing `text` gives, as a sentence (nil when it parses).
    static func error(_ text: String) -> String? {
        do {
            _ = try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
            return nil
        } catch {
            return error.description
        }
    }

    static func configuration(_ text: String) throws -> FlywheelConfiguration {
        try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
    }

    @Test("mode: 0660 says to write \"0660\" (it said only: expected ',' or '}')")
    func octalNumber() {
        #expect(Self.error("{\n  socket: { mode: 0660 },\n}\n")
            == "f.json5 line 2, column 20: a number cannot start with 0 (JSON5 has no octal numbers); a socket mode is a string: write \"0660\".")
    }

    @Test("mode: 660 says the mode is a string such as \"0660\"")
    func modeAsNumber() {
        #expect(Self.error("{\n  socket: { mode: 660 },\n}\n")
            == "f.json5 line 2: key 'socket.mode' must be a string such as \"0660\" (an octal mode, in quotes), got the number 660; write \"0660\".")
    }

    @Test("a missing comma is shown after the value where it is missing, with the column, not at the next line")
    func missingComma() {
        #expect(Self.error("{\n  controls: { tempo: { bpm: 96 } }\n  feel: {}\n}\n")
            == "f.json5 line 2, column 35: expected ',' or '}' after the value of \"controls\".")
        #expect(Self.error("{ devices: [\n  { profile: 'ec11' }\n  { profile: 'ec11' } ] }")
            == "f.json5 line 2, column 22: expected ',' or ']' after this item.")
    }

    @Test("every syntax error names its column")
    func columns() {
        let error = Self.error("{\n  feel: { damping: @ },\n}")
        #expect(error?.hasPrefix("f.json5 line 2, column 20: ") == true, "\(error ?? "parsed")")
    }

    @Test("A and B on one pin, or the button on A or B, are refused at the gpio key")
    func sameLine() {
        #expect(Self.error("{\n  devices: [\n    { profile: 'ec11', gpio: { chip: 'gpiochip0', a: 17, b: 17 } },\n  ],\n}\n")?
            .hasPrefix("f.json5 line 3: key 'devices[0].gpio' gives the same line 17 for 'a' and 'b'") == true)
        #expect(Self.error("{\n  devices: [\n    { profile: 'ec11', gpio: { chip: 'gpiochip0', a: 17, b: 27, button: 27 } },\n  ],\n}\n")?
            .hasPrefix("f.json5 line 3: key 'devices[0].gpio' gives the line 27 for the button and for 'b'") == true)
    }

    @Test("--check-config warns about nodes and chips not there now, and entries with neither path nor gpio, naming flywheel devices")
    func warnings() throws {
        let configuration = try Self.configuration("""
            {
              devices: [
                { name: 'jog', profile: 'powermate', path: '/dev/input/flywheel-powermate' },
                { name: 'knob', profile: 'ec11', gpio: { chip: 'gpiochip9', a: 17, b: 27 } },
                { name: 'sim', profile: 'ec11' },
                { name: 'here', profile: 'ec11', gpio: { chip: 'gpiochip0', a: 5, b: 6 } },
              ],
            }
            """)
        let warnings = ConfigurationWarnings.warnings(in: configuration, exists: { _ in false }, chipExists: { $0 == "gpiochip0" }).map(\.description)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings[0].hasPrefix("f.json5 line 3: key 'devices[0].path' names /dev/input/flywheel-powermate, which does not exist now: flywheeld will wait for it"))
        #expect(warnings[1].hasPrefix("f.json5 line 4: key 'devices[1].gpio' names the GPIO chip 'gpiochip9', which does not exist now"))
        #expect(warnings[0].contains("`flywheel devices`") && warnings[1].contains("`flywheel devices`"))
        #expect(warnings[2].hasPrefix("f.json5 line 5: key 'devices[2]' gives neither 'path' nor 'gpio'"), "\(warnings[2])")
        #expect(ConfigurationWarnings.warnings(in: configuration, exists: { _ in true }, chipExists: { _ in true }).count == 1)
    }
}
