import FlywheelCore
import Testing

@Suite("Daemon core: button actions")
struct DaemonCoreButtonTests {
    static let ms: Nanoseconds = 1_000_000

    static func classes(_ messages: [ServerMessage]) -> [String] { messages.map(\.messageClass.rawValue) }

    @Test("configured buttons: tap tempo, press-and-turn, and the default mode switch; bad keys named")
    func actions() throws {
        let config = try FlywheelConfiguration.parse(
            Array("{ controls: { buttons: { BTN_4: 'tap', '261': 'hold-scrub' } } }".utf8), file: "f.json5")
        #expect(config.buttonActions == [KeyCode.btn4: .tap, KeyCode.btn5: .hold(.scrub)])
        var core = DaemonCore(configuration: config, scrubDurationSeconds: 214)

        // Tap tempo: presses half a second apart are 120 BPM.
        var broadcast: [ServerMessage] = []
        for i in 0..<4 {
            let t = 1_000 * Self.ms + Nanoseconds(i) * 500 * Self.ms
            broadcast += core.button(KeyCode.btn4, pressed: true, at: t)
            broadcast += core.button(KeyCode.btn4, pressed: false, at: t + 50 * Self.ms)
        }
        #expect(core.tempo.bpm == 120)
        #expect(!Self.classes(broadcast).contains("mode"))

        // Press-and-turn: while BTN_5 is held the knob scrubs; released, it sets the tempo again.
        _ = core.button(KeyCode.btn5, pressed: true, at: 5_000 * Self.ms)
        let held = core.knob(by: 1, at: 5_100 * Self.ms)
        #expect(Self.classes(held).contains("scrub") && !Self.classes(held).contains("tempo"))
        _ = core.button(KeyCode.btn5, pressed: false, at: 5_200 * Self.ms)
        let free = core.knob(by: 1, at: 9_000 * Self.ms)
        #expect(Self.classes(free).contains("tempo"))

        // An unlisted button still switches the mode on a tap.
        let tap = core.button(KeyCode.btn0, pressed: true, at: 10_000 * Self.ms) + core.button(KeyCode.btn0, pressed: false, at: 10_100 * Self.ms)
        #expect(Self.classes(tap).contains("mode"))

        #expect(throws: FileLineError(file: "f.json5", line: 1, problem: "key 'controls.buttons.KEY_X' must name a button as BTN_0…BTN_9 or a decimal key code such as \"260\"")) {
            try FlywheelConfiguration.parse(Array("{ controls: { buttons: { KEY_X: 'tap' } } }".utf8), file: "f.json5")
        }
    }

    /// A bridge's button (flywheel mpd's `--button BTN_0=play-pause`) acts on the `tap` button event:
    /// given `none` so the mode stays put, the tap and the long press must still be reported.
    @Test("a button given 'none' reports its tap and its long press, and switches nothing")
    func noneReportsGestures() throws {
        let config = try FlywheelConfiguration.parse(Array("{ controls: { buttons: { BTN_0: 'none' } } }".utf8), file: "f.json5")
        var core = DaemonCore(configuration: config, scrubDurationSeconds: 214)
        let tap = core.button(KeyCode.btn0, pressed: true, at: 1_000 * Self.ms) + core.button(KeyCode.btn0, pressed: false, at: 1_100 * Self.ms)
        let long = core.button(KeyCode.btn0, pressed: true, at: 2_000 * Self.ms) + core.button(KeyCode.btn0, pressed: false, at: 2_700 * Self.ms)
        let actions = try (tap + long).filter { $0.messageClass == .button }.map { try JSONParser.parse($0.bytesWithoutSeq)["action"]?.stringValue }
        #expect(actions == ["press", "release", "tap", "press", "release", "long-press"])
        #expect(!Self.classes(tap + long).contains("mode") && core.mode.active == .tempo)
    }
}
