import Testing
@testable import FlywheelCore

@Suite("Configuration (JSON5)")
struct FlywheelConfigurationTests {
    static func parse(_ text: String) throws -> FlywheelConfiguration {
        try FlywheelConfiguration.parse(Array(text.utf8), file: "/etc/flywheel/flywheel.json5")
    }

    @Test("{} gives the defaults; an empty or comment-only file (a rewrite in progress) is an error")
    func defaults() throws {
        for text in ["", "  // nothing here\n/* still nothing */\n"] {
            #expect(throws: FileLineError.self) { _ = try Self.parse(text) }
        }
        for text in ["{}", "// the defaults\n{}"] {
            let config = try Self.parse(text)
            #expect(config.tempoDial == TempoDial() && config.bpm == 120 && config.framesPerSecond == 60)
            #expect(config.feel == FeelParameters() && config.modes == [.tempo, .scrub] && config.maxClients == 256)
        }
    }

    @Test("JSON5: comments, identifier keys, single quotes, trailing commas; every value mapped")
    func full() throws {
        let config = try Self.parse("""
            // The music box in the kitchen.
            {
              socket: { path: '/run/flywheel/kitchen.sock', group: "audio", mode: "0640", },
              feel: { friction: "ios-normal", damping: "snappy", response: 0.25, min_fling_speed: 1.5, max_speed: 40,
                      release_silence_ms: 80, new_gesture_gap_ms: 250, frames_hz: 30 },
              controls: {
                tempo: { range: [40, 208], table: "maelzel", bpm: 96 },  /* Maelzel's scale */
                scrub: { detents_per_sweep: 100, seconds_per_detent: [1, 20], arming_ms: 150, shuttle_rates: [1, 2, 4], },
                mode: { segments: ["scrub", "tempo"], initial: "scrub" },
              },
              clients: { max_clients: 32, queue_messages: 256 },
            }
            """)
        #expect(config.socketPath == "/run/flywheel/kitchen.sock" && config.socketGroup == "audio" && config.socketMode == 0o640)
        #expect(config.feel.friction == .iosNormal && config.feel.spring.damping == 0.6 && config.feel.spring.responseSeconds == 0.25)
        #expect(config.feel.minimumFlingSpeed == 1.5 && config.feel.maximumSpeed == 40)
        #expect(config.feel.releaseSilenceNanoseconds == 80_000_000 && config.feel.newGestureGapNanoseconds == 250_000_000)
        #expect(config.framesPerSecond == 30 && config.bpm == 96 && config.tempoDial.table == .maelzel && config.tempoDial.range == 40...208)
        #expect(config.detentsPerSweep == 100 && config.secondsPerDetent == 1...20 && config.armingNanoseconds == 150_000_000)
        #expect(config.shuttleRates.rates == [1, 2, 4] && config.modes == [.scrub, .tempo] && config.initialMode == .scrub)
        #expect(config.maxClients == 32 && config.queueMessages == 256)
        let core = DaemonCore(configuration: config)
        #expect(core.mode.active == .scrub && core.tempo.bpm == 96)
    }

    static let bad: [(String, String)] = [
        ("{ sockets: {} }", "line 1: unknown key 'sockets'; the keys are socket, feel, controls, clients, devices."),
        ("{\n socket: { path: 'relative.sock' } }", "line 2: key 'socket.path' must be an absolute path under 108 bytes, got \"relative.sock\"."),
        ("{ socket: { mode: '0777x' } }", "line 1: key 'socket.mode' must be an octal mode such as \"0660\" that lets the owner read and write, got \"0777x\"."),
        ("{ socket: { mode: '0060' } }", "line 1: key 'socket.mode' must be an octal mode such as \"0660\" that lets the owner read and write, got \"0060\"."),
        ("{ socket: 5 }", "line 1: key 'socket' must be an object { … }, got a number."),
        ("{ socket: { user: 'x' } }", "line 1: unknown key 'socket.user'; the keys of 'socket' are path, group, mode."),
        ("{ feel: { friction: 'sticky' } }", "line 1: key 'feel.friction' must be a number or one of \"standard\", \"ios-normal\", \"ios-fast\", got \"sticky\"."),
        ("{ feel: { friction: 0 } }", "line 1: key 'feel.friction' must be from 0.1 to 1000, got 0."),
        ("{ feel: { damping: 5 } }", "line 1: key 'feel.damping' must be from 0.1 to 2, got 5."),
        ("{ feel: { damping: 'bouncy' } }", "line 1: key 'feel.damping' must be a number or one of \"standard\", \"snappy\", \"critical\", got \"bouncy\"."),
        ("{ feel: { response: '0.3' } }", "line 1: key 'feel.response' must be a number, got a string."),
        ("{ feel: { release_silence_ms: -5 } }", "line 1: key 'feel.release_silence_ms' must be from 5 to 2000, got -5."),
        ("{ feel: { release_silence_ms: 12.5 } }", "line 1: key 'feel.release_silence_ms' must be a whole number, got 12.5."),
        ("{ feel: { frames_hz: 1000 } }", "line 1: key 'feel.frames_hz' must be from 0 to 240, got 1000."),
        ("{\n\n controls: { tempo: { range: [300, 20] } } }", "line 3: key 'controls.tempo.range' must be two whole numbers [low, high] with 1 ≤ low < high ≤ 1000, got [300,20]."),
        ("{ controls: { tempo: { bpm: 400 } } }", "line 1: key 'controls.tempo.bpm' must be from 20 to 300, got 400."),
        ("{ controls: { tempo: { table: 'roman' } } }", "line 1: key 'controls.tempo.table' must be one of \"integer\", \"maelzel\", got \"roman\"."),
        ("{ controls: { tempo: { range: [1, 30], table: 'maelzel' } } }", "line 1: key 'controls.tempo.table' has no value within the range 1–30."),
        ("{ controls: { scrub: { seconds_per_detent: [5, 1] } } }", "line 1: key 'controls.scrub.seconds_per_detent' must be [low, high] seconds with 0 < low ≤ high ≤ 3600, got [5,1]."),
        ("{ controls: { scrub: { shuttle_rates: [2, 1] } } }", "line 1: key 'controls.scrub.shuttle_rates' must be increasing positive numbers (times real time), got [2,1]."),
        ("{ controls: { scrub: { shuttle_rates: [1,2,3,4,5,6,7,8] } } }", "line 1: key 'controls.scrub.shuttle_rates' must be 1 to 7 rates for ring positions 1…7, got [1,2,3,4,5,6,7,8]."),
        ("{ controls: { mode: { segments: [] } } }", "line 1: key 'controls.mode.segments' must be a non-empty list of \"tempo\", \"scrub\" and \"volume\", got []."),
        ("{ controls: { mode: { segments: ['tempo', 'pitch'] } } }", "line 1: key 'controls.mode.segments' must list \"tempo\", \"scrub\" and \"volume\", each at most once, got [\"tempo\",\"pitch\"]."),
        ("{ controls: { volume: { cap: 0 } } }", "line 1: key 'controls.volume.cap' must be from 1 to 100, got 0."),
        ("{ controls: { volume: { cap: 40, step: 41 } } }", "line 1: key 'controls.volume.step' must be from 1 to 40, got 41."),
        ("{ controls: { mode: { initial: 'scrub', segments: ['tempo'] } } }", "line 1: key 'controls.mode.initial' must be one of \"tempo\", got \"scrub\"."),
        ("{ controls: { pitch: {} } }", "line 1: unknown key 'controls.pitch'; the keys of 'controls' are tempo, scrub, volume, mode, buttons."),
        ("{ clients: { max_clients: 0 } }", "line 1: key 'clients.max_clients' must be from 1 to 4096, got 0."),
        ("{\n feel: {},\n feel: {} }", "line 3, column 2: the key \"feel\" appears twice (first on line 2)."),
        ("{ feel: { damping: NaN } }", "line 1: key 'feel.damping' must be a finite number, got NaN."),
        ("{ feel: { dampnig: NaN } }", "line 1: unknown key 'feel.dampnig'; the keys of 'feel' are friction, damping, response, min_fling_speed, max_speed, release_silence_ms, new_gesture_gap_ms, frames_hz."),
        ("{ feel: {\n friction: standard } }", "line 2, column 12: strings need quotes: write \"standard\"."),
        ("{ controls: { tempo: { bounds: hard } } }", "line 1, column 32: strings need quotes: write \"hard\"."),
        // `96.` is `96.0`, a double: a key of whole numbers refuses both alike.
        ("{ controls: { scrub: { arming_ms: 96. } } }", "line 1: key 'controls.scrub.arming_ms' must be a whole number, got 96."),
        ("{ controls: { scrub: { arming_ms: 96.0 } } }", "line 1: key 'controls.scrub.arming_ms' must be a whole number, got 96."),
        ("{ socket: { mode: 0x } }", "line 1, column 21: expected hex digits after 0x."),
        ("\u{FEFF}", "line 1: the configuration is empty (write {} for the defaults)."),
        ("\u{FEFF}// nothing yet\n", "line 1: the configuration is empty (write {} for the defaults)."),
        ("{ feel: {} }\n\u{FEFF}", "line 2, column 1: unexpected text after the configuration object."),
        ("{ feel: {} } extra", "line 1, column 14: unexpected text after the configuration object."),
        ("{\n /* never closed\n", "line 2, column 2: a /* comment that never ends."),
        ("{ feel: { damping: 'x }", "line 1, column 24: expected '\"' to close the string but the input ended."),
        ("[1, 2]", "line 1: the configuration must be an object { … }, got an array."),
        // NaN and Infinity (JSON5 writes them) are refused by the key, in every numeric key and list.
        ("\u{FEFF}{\n\n feel: { damping: -NaN } }", "line 3: key 'feel.damping' must be a finite number, got NaN."),
        ("{ feel: { friction: Infinity } }", "line 1: key 'feel.friction' must be a finite number, got Infinity."),
        ("{ feel: { max_speed: -Infinity } }", "line 1: key 'feel.max_speed' must be a finite number, got -Infinity."),
        // NaN encodes as null, and `min_fling_speed: null` means none: NaN must not pass for it.
        ("{ feel: { min_fling_speed: NaN } }", "line 1: key 'feel.min_fling_speed' must be a finite number, got NaN."),
        ("{ feel: { release_silence_ms: +Infinity } }", "line 1: key 'feel.release_silence_ms' must be a finite number, got Infinity."),
        ("{ controls: { tempo: { bpm: Infinity } } }", "line 1: key 'controls.tempo.bpm' must be a finite number, got Infinity."),
        ("{ controls: { tempo: { resolution: NaN } } }", "line 1: key 'controls.tempo.resolution' must be a finite number, got NaN."),
        ("{ controls: { tempo: { range: [20, Infinity] } } }", "line 1: key 'controls.tempo.range[1]' must be a finite number, got Infinity."),
        ("{ controls: { scrub: { seconds_per_detent: [\n  0.5,\n  NaN] } } }", "line 3: key 'controls.scrub.seconds_per_detent[1]' must be a finite number, got NaN."),
        ("{ controls: { scrub: { shuttle_rates: [1, 2, Infinity] } } }", "line 1: key 'controls.scrub.shuttle_rates[2]' must be a finite number, got Infinity."),
        ("{ controls: { scrub: { arming_ms: NaN } } }", "line 1: key 'controls.scrub.arming_ms' must be a finite number, got NaN."),
        ("{ controls: { volume: { acceleration: { curve: [[5, 1], [NaN, 2]] } } } }", "line 1: key 'controls.volume.acceleration.curve[1][0]' must be a finite number, got NaN."),
        ("{ controls: { volume: { cap: Infinity } } }", "line 1: key 'controls.volume.cap' must be a finite number, got Infinity."),
        ("{ devices: [ { profile: 'ec11', acceleration: { curve: [[5, -Infinity]] } } ] }", "line 1: key 'devices[0].acceleration.curve[0][1]' must be a finite number, got -Infinity."),
        ("{ devices: [\n  { profile: 'touch', region: { center: [Infinity, 0] } } ] }", "line 2: key 'devices[0].region.center[0]' must be a finite number, got Infinity."),
        ("{ devices: [ { profile: 'touch', region: { shape: 'strip', from: -Infinity, to: 5 } } ] }", "line 1: key 'devices[0].region.from' must be a finite number, got -Infinity."),
        ("{ devices: [ { profile: 'ec11', gpio: { a: NaN, b: 2 } } ] }", "line 1: key 'devices[0].gpio.a' must be a finite number, got NaN."),
        ("{ devices: [ { profile: 'ec11', detents_per_step: Infinity } ] }", "line 1: key 'devices[0].detents_per_step' must be a finite number, got Infinity."),
        ("{ socket: { mode: NaN } }", "line 1: key 'socket.mode' must be a finite number, got NaN."),
        ("{ clients: { max_clients: Infinity } }", "line 1: key 'clients.max_clients' must be a finite number, got Infinity."),
    ]

    @Test("malformed configurations name the file, the line and the key", arguments: 0..<bad.count)
    func errors(_ index: Int) {
        let (text, message) = Self.bad[index]
        do throws(FileLineError) {
            _ = try FlywheelConfiguration.parse(Array(text.utf8), file: "/etc/flywheel/flywheel.json5")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == "/etc/flywheel/flywheel.json5 " + message)
        }
    }

    @Test("JSON5 numbers: a sign, hexadecimal, a point at either end; a byte-order mark at the start")
    func json5Numbers() throws {
        let config = try Self.parse("""
            \u{FEFF}{
              feel: { response: .25, max_speed: +40, damping: 1. },
              controls: {
                tempo: { bpm: +96., range: [0x14, 0x12C] },
                scrub: { arming_ms: 0x60, seconds_per_detent: [.5, 3e1], shuttle_rates: [.5, 1., +2] },
                volume: { cap: 0X64, start: +30 },
              },
              devices: [ { profile: 'touch', path: '/dev/input/event5', region: { shape: 'strip', from: -0x1F, to: +.5e3 } } ],
            }
            """)
        #expect(config.feel.spring.responseSeconds == 0.25 && config.feel.maximumSpeed == 40 && config.feel.spring.damping == 1)
        #expect(config.bpm == 96 && config.tempoDial.range == 20...300)
        #expect(config.armingNanoseconds == 96_000_000 && config.secondsPerDetent == 0.5...30 && config.shuttleRates.rates == [0.5, 1, 2])
        #expect(config.volumeDial.cap == 100 && config.volume == 30)
        #expect(config.devices.first?.region == .strip(alongX: true, from: -31, to: 500, detents: 32))
        #expect(config.source?.keyLines["controls.scrub.arming_ms"] == 5)
    }

    @Test("a gpio entry without a chip, or with chip \"header\", is on the Raspberry Pi header; lines by offset or name")
    func gpioHeaderByDefault() throws {
        let config = try Self.parse("""
            { devices: [
                { name: "left", profile: "ec11", gpio: { a: "GPIO17", b: "GPIO27", button: "GPIO22" } },
                { name: "right", profile: "ec11", gpio: { chip: "header", a: 5, b: 6 } },
                { name: "expander", profile: "ec11", gpio: { chip: "pinctrl-rp1", a: 5, b: 6 } },
              ] }
            """)
        #expect(config.devices[0].gpio == .init(chip: .header, a: "GPIO17", b: "GPIO27", button: "GPIO22"))
        #expect(config.devices[1].gpio == .init(chip: .header, a: "5", b: "6", button: nil))
        #expect(config.devices[2].gpio?.chip == .named("pinctrl-rp1"))
    }

    @Test("devices: roles, evdev paths and GPIO lines, with errors naming the entry")
    func devices() throws {
        let config = try Self.parse("""
            { devices: [
                { name: "kitchen knob", profile: "ec11", gpio: { chip: "gpiochip0", a: 17, b: "GPIO27", button: 22 }, control: "tempo" },
                { profile: "powermate", path: "/dev/input/flywheel-powermate", grab: true },
              ] }
            """)
        #expect(config.devices.count == 2)
        #expect(config.devices[0].gpio == .init(chip: .named("gpiochip0"), a: "17", b: "GPIO27", button: "22"))
        #expect(config.devices[0].route == .pinned(.tempo))
        #expect(config.devices[1].name == "powermate" && config.devices[1].route == .followMode && config.devices[1].grab)
        #expect(config.device(profile: "ec11")?.name == "kitchen knob")
        #expect(config.devices[1].light == .off && config.devices[1].region == nil)
        let touch = try Self.parse("""
            { devices: [
                { profile: "panel", path: "/dev/input/event5", region: { shape: "ring", center: [400, 240], min_radius: 40, detents_per_turn: 36 } },
                { profile: "panel", path: "/dev/input/event6", region: { shape: "strip", axis: "y", from: 0, to: 480 } },
                { profile: "powermate", path: "/dev/input/event7", led: "beat", buttons: { BTN_0: "none", "260": "tap" } },
              ] }
            """)
        #expect(touch.devices[0].region == .ring(centerX: 400, centerY: 240, minimumRadius: 40, detentsPerTurn: 36))
        #expect(touch.devices[1].region == .strip(alongX: false, from: 0, to: 480, detents: 32))
        #expect(touch.devices[2].light == .beat)
        #expect(touch.devices[2].buttonActions == [KeyCode.btn0: ButtonAction.none, 260: .tap] && touch.devices[1].buttonActions.isEmpty)
        let failures: [(String, String)] = [
            ("{ devices: {} }", "line 1: key 'devices' must be a list of devices, got an object."),
            ("{ devices: [\n { name: 'x' } ] }", "line 2: key 'devices[0].profile' is missing: name the device's hardware/ profile, such as \"ec11\"."),
            ("{ devices: [ { profile: 'ec11', path: 'event3' } ] }", "line 1: key 'devices[0].path' must be a device node under /dev/, got \"event3\"."),
            ("{ devices: [ { profile: 'ec11', control: 'pitch' } ] }", "line 1: key 'devices[0].control' must be one of \"mode\", \"tempo\", \"scrub\", \"volume\", \"navigate\", \"switch\", got \"pitch\"."),
            ("{ devices: [ { profile: 'ec11', gpio: { chip: 'gpiochip0', a: 17 } } ] }", "line 1: key 'devices[0].gpio.b' is missing: give a line offset or name."),
            ("{ devices: [ { profile: 'ec11', gpio: { chip: 'c', a: -1, b: 2 } } ] }", "line 1: key 'devices[0].gpio.a' must be a line offset (a whole number) or a line name, got -1."),
            ("{ devices: [ { profile: 'ec11', gpio: { chip: '', a: 17, b: 27 } } ] }", "line 1: key 'devices[0].gpio.chip' must name a chip (such as \"gpiochip0\" or a label), or be left out for the Raspberry Pi header."),
            ("{ devices: [ { profile: 'ec11', colour: 'red' } ] }", "line 1: unknown key 'devices[0].colour'; the keys of 'devices[0]' are name, profile, path, gpio, role, control, grab, region, led, buttons, invert, detents_per_step, inertia, acceleration."),
            ("{ devices: [ { profile: 'touch', region: { shape: 'ring' } } ] }", "line 1: key 'devices[0].region.center' is missing: give the ring's centre [x, y] in device units."),
            ("{ devices: [ { profile: 'touch', region: { shape: 'ring', center: [1] } } ] }", "line 1: key 'devices[0].region.center' must be [x, y] in device units, got [1]."),
            ("{ devices: [ { profile: 'touch', region: { shape: 'strip', from: 5, to: 5 } } ] }", "line 1: key 'devices[0].region.to' must differ from 'from' (the strip has no length)."),
            ("{ devices: [ { profile: 'touch', region: { shape: 'blob' } } ] }", "line 1: key 'devices[0].region.shape' must be one of \"ring\", \"strip\", got \"blob\"."),
            ("{ devices: [ { profile: 'powermate', led: 'disco' } ] }", "line 1: key 'devices[0].led' must be one of \"off\", \"beat\", got \"disco\"."),
        ]
        for (text, message) in failures {
            do throws(FileLineError) {
                _ = try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description == "f.json5 " + message)
            }
        }
    }

    @Test("invalid UTF-8 is named with its line")
    func utf8() {
        #expect(throws: FileLineError(file: "f", line: 2, column: 1, problem: "invalid UTF-8")) {
            try FlywheelConfiguration.parse(Array("{\n".utf8) + [0xFF] + Array("}".utf8), file: "f")
        }
    }
}
