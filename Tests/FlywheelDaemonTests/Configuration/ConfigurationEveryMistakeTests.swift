import FlywheelCore
import Testing
@testable import FlywheelDaemon

/// `--check-config`, a start and a reload report every mistake in the file at once, in the file's
/// order, each with its line and key; and the mistakes a file's own rules did not see (two devices
/// on one line or node, a curve that falls, a world-writable socket, a header that is not there).
@Suite("Configuration: every mistake, in file order")
struct ConfigurationEveryMistakeTests {
    static func error(_ text: String) -> String? { ConfigurationMistakesTests.error(text) }
    static func configuration(_ text: String) throws -> FlywheelConfiguration { try ConfigurationMistakesTests.configuration(text) }

    @Test("three mistakes in three sections: all three, lines 3, 4 and 6, one sentence each")
    func threeInOrder() {
        // Read in another order (feel, controls, then devices): reported in the file's.
        let text = """
            {
              feel: { damping: 7 },
              devices: [
                { profile: 'ec11', gpio: { a: 17, b: 17 } },
              ],
              controls: { tempo: { bpm: 900 } },
            }
            """
        let lines = Self.error(text)?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.map { $0.prefix(13) } == ["f.json5 line ", "f.json5 line ", "f.json5 line "])
        #expect(lines.first?.hasPrefix("f.json5 line 2: key 'feel.damping' must be from") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("f.json5 line 4: key 'devices[0].gpio' gives the same line 17") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("f.json5 line 6: key 'controls.tempo.bpm' must be from 20 to 300, got 900") == true, "\(lines)")
    }

    @Test("two unknown keys in one object and a bad value beside them: all three")
    func unknownKeys() {
        let lines = Self.error("{\n  feel: {\n    dampin: 0.3,\n    frames_hz: 900,\n    respons: 0.2,\n  },\n}\n")?.split(separator: "\n") ?? []
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.hasPrefix("f.json5 line 3: unknown key 'feel.dampin'") == true)
        #expect(lines.dropFirst().first?.hasPrefix("f.json5 line 4: key 'feel.frames_hz' must be from 0 to 240") == true)
        #expect(lines.last?.hasPrefix("f.json5 line 5: unknown key 'feel.respons'") == true)
    }

    @Test("a mistake in one device does not hide the next device's")
    func twoDevices() {
        let lines = Self.error("""
            { devices: [
              { profile: 'ec11', invert: 'yes' },
              { profile: 'ec11', detents_per_step: 0 },
            ] }
            """)?.split(separator: "\n") ?? []
        #expect(lines == [
            "f.json5 line 2: key 'devices[0].invert' must be true or false, got a string.",
            "f.json5 line 3: key 'devices[1].detents_per_step' must be from 1 to 64, got 0.",
        ])
    }

    @Test("a bad range is said once: the bpm is not then also measured against the default range")
    func dependentKeys() {
        #expect(Self.error("{ controls: { tempo: {\n  range: [300, 20],\n  bpm: 400 } } }")?.split(separator: "\n").count == 1)
        #expect(Self.error("{ controls: { volume: {\n  cap: 0,\n  start: 50 } } }")?.split(separator: "\n").count == 1)
        #expect(Self.error("{ controls: { mode: {\n  segments: ['tempo', 'pitch'],\n  initial: 'scrub' } } }")?.split(separator: "\n").count == 1)
    }

    @Test("a value that is not an object, or not finite, is one mistake: not also its keys missing, nor its dependants judged")
    func oneMistakeOnce() {
        for text in ["{ devices: [\n 'ec11' ] }", "{ devices: [ { profile: 'ec11',\n gpio: 17 } ] }", "{ devices: [ { profile: 'ec11',\n region: 'ring' } ] }",
                     "{ controls: { tempo: {\n range: [200, Infinity], bpm: 400 } } }", "{ controls: { mode: {\n segments: ['volume', NaN], initial: 'volume' } } }",
                     "{ controls: { volume: {\n cap: NaN, start: 90 } } }"] {
            let lines = Self.error(text)?.split(separator: "\n") ?? []
            #expect(lines.count == 1, "\(text): \(lines)")
        }
    }

    @Test("NaN or Infinity as a button's action is refused by its key (it read as \"mode\")")
    func nonFiniteButton() {
        #expect(Self.error("{ controls: { buttons: {\n BTN_0: NaN } } }") == "f.json5 line 2: key 'controls.buttons.BTN_0' must be a finite number, got NaN.")
        #expect(Self.error("{ devices: [ { profile: 'ec11', buttons: {\n BTN_0: Infinity } } ] }")
            == "f.json5 line 2: key 'devices[0].buttons.BTN_0' must be a finite number, got Infinity.")
    }

    @Test("one mistake reads as it always did: a single sentence")
    func oneMistake() {
        #expect(Self.error("{ devices: [\n{ profile: 'ec11',\ndetents_per_step: 0 }] }")
            == "f.json5 line 3: key 'devices[0].detents_per_step' must be from 1 to 64, got 0.")
    }

    @Test("two devices on the same GPIO line, by offset and by name, on the header: refused at the second")
    func sameGPIOLines() {
        let error = Self.error("""
            { devices: [
              { name: 'volume', profile: 'ec11', gpio: { a: 17, b: 27, button: 22 } },
              { name: 'tempo', profile: 'ec11', gpio: { a: 'GPIO22', b: 23 } },
            ] }
            """)
        #expect(error == "f.json5 line 3: key 'devices[1].gpio' gives the line GPIO22 (a), which devices[0] ('volume') already uses (button): each line belongs to one device.", "\(error ?? "parsed")")
        // Within one device too: 17 and "GPIO17" on the header are one line.
        #expect(Self.error("{ devices: [\n  { profile: 'ec11', gpio: { a: 17, b: 'GPIO17' } },\n] }")?
            .hasPrefix("f.json5 line 2: key 'devices[0].gpio' gives the same line 17 for 'a' and 'b'") == true)
        #expect(Self.error("{ devices: [\n  { profile: 'ec11', gpio: { a: 17, b: 27, button: 'GPIO27' } },\n] }")?
            .hasPrefix("f.json5 line 2: key 'devices[0].gpio' gives the line GPIO27 for the button and for 'b'") == true)
        // The same offsets on two chips are two lines.
        #expect(Self.error("""
            { devices: [
              { profile: 'ec11', gpio: { chip: 'gpiochip0', a: 17, b: 27 } },
              { profile: 'ec11', gpio: { chip: 'gpiochip1', a: 17, b: 27 } },
            ] }
            """) == nil)
        // A chip named "header" is the header, as a chip left out is.
        #expect(Self.error("""
            { devices: [
              { profile: 'ec11', gpio: { a: 5, b: 6 } },
              { profile: 'ec11', gpio: { chip: 'header', a: 'GPIO6', b: 13 } },
            ] }
            """)?.hasPrefix("f.json5 line 3: key 'devices[1].gpio' gives the line GPIO6 (a), which devices[0] ('ec11') already uses (b)") == true)
    }

    @Test("two devices on one evdev node: refused at the second")
    func sameNode() {
        #expect(Self.error("""
            { devices: [
              { name: 'jog', profile: 'shuttlexpress', path: '/dev/input/flywheel-shuttlexpress' },
              { name: 'wheel', profile: 'shuttlexpress', path: '/dev/input/flywheel-shuttlexpress' },
            ] }
            """) == "f.json5 line 3: key 'devices[1].path' names /dev/input/flywheel-shuttlexpress, which devices[0] ('jog') already reads: give each device one entry.")
    }

    @Test("an acceleration curve that falls, or is empty, is refused with the fix")
    func fallingCurve() {
        #expect(Self.error("{ controls: { tempo: {\n  acceleration: { curve: [[5, 4], [15, 2], [30, 1]] } } } }")
            == "f.json5 line 2: key 'controls.tempo.acceleration.curve' point 2 has a smaller factor than point 1: a faster turn would move less; factors must not fall.")
        #expect(Self.error("{ controls: { tempo: {\n  acceleration: { curve: [] } } } }")
            == "f.json5 line 2: key 'controls.tempo.acceleration.curve' is empty: write acceleration: \"off\" for one step a detent at any speed.")
        // Level is fine: a curve that stops rising.
        #expect(Self.error("{ controls: { tempo: { acceleration: { curve: [[5, 1], [15, 2], [30, 2]] } } } }") == nil)
    }

    @Test("a socket anyone may write to is warned about, at check and at start")
    func worldWritableSocket() throws {
        let open = try Self.configuration("{\n  socket: { mode: '0777' },\n}\n")
        let warnings = ConfigurationWarnings.notices(in: open).map(\.description)
        #expect(warnings == ["f.json5 line 2: key 'socket.mode' is \"0777\": every user on this machine may connect and turn the knob for you; \"0660\" with 'group' lets only that group."])
        #expect(ConfigurationWarnings.notices(in: try Self.configuration("{ socket: { mode: '0660' } }")).isEmpty)
        #expect(ConfigurationWarnings.notices(in: try Self.configuration("{ socket: { mode: '0662' } }")).count == 1)
    }

    @Test("a header GPIO device on a machine with no Raspberry Pi header is warned about")
    func noHeader() throws {
        let configuration = try Self.configuration("{ devices: [\n  { profile: 'ec11', gpio: { a: 17, b: 27 } },\n] }")
        let warnings = ConfigurationWarnings.warnings(in: configuration, exists: { _ in true }, chipExists: { _ in true }, headerExists: { false })
            .map(\.description)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("f.json5 line 2: key 'devices[0].gpio' leaves out 'chip', so it means the Raspberry Pi header, and this machine has no header chip") == true, "\(warnings)")
        #expect(ConfigurationWarnings.warnings(in: configuration, exists: { _ in true }, chipExists: { _ in true }, headerExists: { true }).isEmpty)
    }

    @Test("warnings come in the file's order, a socket's after a device above it")
    func warningsInOrder() throws {
        let configuration = try Self.configuration("{ devices: [\n  { profile: 'ec11', gpio: { a: 17, b: 27 } },\n],\nsocket: { mode: '0666' } }")
        let lines = ConfigurationWarnings.warnings(in: configuration, exists: { _ in true }, chipExists: { _ in true }, headerExists: { false })
            .map(\.line)
        #expect(lines == [2, 4])
    }
}
