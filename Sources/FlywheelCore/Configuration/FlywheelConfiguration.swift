/// flywheeld's configuration: a JSON5 file (comments allowed), `/etc/flywheel/flywheel.json5` by
/// default; absent means these defaults. Every error names the file, the line and the key.
///
/// ```json5
/// {
///   socket: { path: "/run/flywheel/flywheel.sock", group: "audio", mode: "0660" },
///   feel: { friction: "standard", damping: 0.35, response: 0.3, max_speed: 60, frames_hz: 60,
///           release_silence_ms: 100, new_gesture_gap_ms: 200 },
///   controls: {
///     tempo: { range: [20, 300], table: "integer", bpm: 120, bounds: "rubber",  // "hard", "wrap"
///              resolution: 1,  // 0.1, 0.2 or 0.5: the integer table in tenths of a BPM
///              acceleration: "gentle" },  // "off", "strong", or { curve: [[5, 1], [15, 2], [30, 4]] }
///     volume: { cap: 100, start: 30, step: 2, bounds: "rubber", acceleration: "gentle",
///               restore_max: 50 },  // a volume restored from the state file starts at most here
///     scrub: { detents_per_sweep: 200, seconds_per_detent: [0.5, 30], arming_ms: 200,
///              shuttle_rates: [0.5, 1, 2, 4, 8, 16, 32] },  // commit: "on-rest" or "armed"
///     mode: { segments: ["tempo", "scrub"], initial: "tempo" },
///   },
///   clients: { max_clients: 256, queue_messages: 1024 },
/// }
/// ```
public struct FlywheelConfiguration: Sendable {
    /// Socket settings.
    public var socketPath: String?
    public var socketGroup: String?
    public var socketMode: UInt32 = 0o660
    /// The feel.
    public var feel = FeelParameters()
    /// Continuous frames per second while in motion (0: none).
    public var framesPerSecond: Double = 60
    /// The tempo dial and its starting BPM.
    public var tempoDial = TempoDial()
    public var bpm: Double = 120
    /// The volume dial (cap and step per detent) and its starting volume.
    package var volumeDial = VolumeDial()
    public var volume: Double = 30
    /// The most a volume restored from the state file starts at (percent): a box switched on does
    /// not start loud (`controls.volume.restore_max`).
    public var volumeRestoreMax = Self.defaultVolumeRestoreMax
    /// ``volumeRestoreMax``'s default: 50 %, half of full scale — loud enough to hear at once, not
    /// the party's volume at breakfast.
    public static let defaultVolumeRestoreMax = 50
    /// The scrubber's resolution and arming.
    package var detentsPerSweep: Double = 200
    public var secondsPerDetent: ClosedRange<Double> = 0.5...30
    package var armingNanoseconds: Nanoseconds = 200_000_000
    package var shuttleRates = ShuttleRates()
    /// When a scrub commits, for every input (`controls.scrub.commit`); nil (the default): by input
    /// kind, on rest for knobs and jog wheels, armed for touch panels and strips.
    package var scrubCommit: ScrubCommitPolicy?
    /// What buttons do, by key code (`controls.buttons`); unlisted ones switch the mode on a tap.
    public var buttonActions: [UInt16: ButtonAction] = [:]
    /// The modes, and the one the knob starts in.
    public var modes: [Control] = [.tempo, .scrub]
    public var initialMode: Control = .tempo
    /// Client limits.
    public var maxClients = 256
    public var queueMessages = 1024
    /// The devices and their roles.
    public var devices: [DeviceEntry] = []
    /// The file and the line of each key, when the configuration was read from a file (nil: the defaults).
    public var source: ConfigurationSource?
    /// Each control's acceleration while a hand turns (`controls.<control>.acceleration`); a
    /// control not listed has ``AccelerationCurve/standard(for:)``.
    package var accelerations: [Control: AccelerationCurve] = [:]
    /// Keys that work but should change (old names), for warnings.
    public var notices: [ConfigurationNotice] = []

    /// The acceleration of `control`'s knobs without their own.
    package func acceleration(for control: Control) -> AccelerationCurve { accelerations[control] ?? .standard(for: control) }

    /// One configured device: how it is found and what it drives.
    public struct DeviceEntry: Sendable, Hashable {
        /// A name for messages and `hello`.
        public var name: String
        /// The `hardware/` profile it is (also what a simulated scenario names).
        public var profile: String
        /// An evdev node or stable symlink, for USB and kernel devices.
        public var path: String?
        /// GPIO lines, for an encoder wired to a chip: the chip (the Raspberry Pi header unless
        /// named), A, B and an optional button (offsets or line names such as `GPIO17`).
        public var gpio: GPIOLines?
        /// What the knob drives: the mode's control (`control: "mode"`), one control (`tempo`,
        /// `scrub`, `volume`), or nothing (`role: "buttons"`: only its keys are used).
        public var route: KnobRoute
        /// Take the device exclusively (EVIOCGRAB).
        public var grab: Bool
        /// A touch panel's knob region (a ring or a strip); nil: the default ring about its middle.
        public var region: TouchRegion? = nil
        /// The device's light (`led`): off, or a flash on the metronome beat (PowerMate).
        public var light: DeviceLight = .off
        /// The device's own button actions (`buttons`), before `controls.buttons`.
        public var buttonActions: [UInt16: ButtonAction] = [:]
        /// Its buttons' long and double presses (`buttons` given as `{ press, long, double }`).
        public var buttonGestures: [UInt16: ButtonGestures] = [:]
        /// Its knob's own settings (`invert`, `detents_per_step`, `inertia`, `acceleration`).
        public var knobOptions = KnobOptions()

        public struct GPIOLines: Sendable, Hashable {
            public var chip: GPIOChipSelector
            public var a: String
            public var b: String
            public var button: String?
        }
    }

    /// The configured device for a profile id, if any.
    public func device(profile: String) -> DeviceEntry? { devices.first { $0.profile == profile } }

    /// Every key the file takes, by the object it is in (a device's `region` by its shape, a
    /// device's button given as `{ press, long, double }` as `BUTTON`, any `acceleration` given as
    /// a curve): what ``parse(_:file:)`` accepts, and what the example configuration
    /// (udev/flywheel.json5) shows, each key at least once.
    package static let keys: [String: [String]] = [
        "": ["socket", "feel", "controls", "clients", "devices"],
        "socket": ["path", "group", "mode"],
        "feel": ["friction", "damping", "response", "min_fling_speed", "max_speed", "release_silence_ms", "new_gesture_gap_ms", "frames_hz"],
        "controls": ["tempo", "scrub", "volume", "mode", "buttons"],
        "controls.tempo": ["range", "table", "bpm", "bounds", "acceleration", "resolution"],
        "controls.volume": ["cap", "start", "step", "bounds", "acceleration", "restore_max"],
        "controls.scrub": ["detents_per_sweep", "seconds_per_detent", "arming_ms", "shuttle_rates", "commit", "acceleration"],
        "controls.mode": ["segments", "initial"],
        "clients": ["max_clients", "queue_messages"],
        "devices[]": [
            "name", "profile", "path", "gpio", "role", "control", "grab", "region", "led", "buttons", "invert", "detents_per_step",
            "inertia", "acceleration",
        ],
        "devices[].gpio": ["chip", "a", "b", "button"],
        "devices[].buttons.BUTTON": ["press", "long", "double"],
        "devices[].region (ring)": ["shape", "center", "min_radius", "detents_per_turn"],
        "devices[].region (strip)": ["shape", "axis", "from", "to", "detents"],
        "acceleration": ["curve"],
    ]

    /// The defaults.
    public init() {}

    /// Parses a configuration file's bytes; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(FileLineError) -> FlywheelConfiguration {
        let document: (value: JSONValue, memberLines: [String: Int])
        do { document = try JSONParser.parseJSON5(bytes) } catch {
            throw FileLineError(
                file: file, line: JSONParser.line(of: error.offset, in: bytes), column: JSONParser.column(of: error.offset, in: bytes),
                problem: SyntaxHint.problem(error, in: bytes))
        }
        // An empty file is most often one being rewritten: refusing it keeps the running
        // configuration on a reload. `{}` asks for the defaults.
        guard document.value != .object([]) || bytes.contains(0x7B) else {
            throw FileLineError(file: file, line: 1, problem: "the configuration is empty (write {} for the defaults)")
        }
        var config = FlywheelConfiguration()
        config.source = ConfigurationSource(file: file, keyLines: document.memberLines)
        // Each value is read in an attempt: a mistake is kept, the value keeps its default, and the
        // reading goes on, so that every mistake in the file is reported at once, in its order.
        let problems = ConfigProblems()
        let root = ConfigReader(file: file, lines: document.memberLines, path: "", value: document.value, line: 1, problems: problems)
        root.only(Self.keys[""]!)
        parseSocket(root.child("socket"), into: &config)
        parseFeel(root.child("feel"), into: &config)
        let controls = root.child("controls")
        controls.only(Self.keys["controls"]!)
        parseTempo(controls.child("tempo"), into: &config)
        parseVolume(controls.child("volume"), into: &config)
        parseScrub(controls.child("scrub"), into: &config)
        parseMode(controls.child("mode"), into: &config)
        config.buttonActions = parseButtons(controls.child("buttons")).actions

        let clients = root.child("clients")
        clients.only(Self.keys["clients"]!)
        clients.attempt { () throws(FileLineError) in config.maxClients = try clients.integer("max_clients", in: 1...4096, default: 256) }
        clients.attempt { () throws(FileLineError) in config.queueMessages = try clients.integer("queue_messages", in: 16...65_536, default: 1024) }
        config.devices = parseDevices(root, notices: &config.notices)
        try problems.check()
        return config
    }

    static func parseSocket(_ socket: ConfigReader, into config: inout FlywheelConfiguration) {
        socket.only(Self.keys["socket"]!)
        socket.attempt { () throws(FileLineError) in
            if let path = try socket.string("path", default: nil) {
                guard path.hasPrefix("/"), path.utf8.count < 108 else { throw socket.fail("path", "must be an absolute path under 108 bytes, got \"\(path)\"") }
                config.socketPath = path
            }
        }
        socket.attempt { () throws(FileLineError) in config.socketGroup = try socket.string("group", default: nil) }
        socket.attempt { () throws(FileLineError) in
            if case .int(let number)? = socket.value("mode") {
                // `mode: 660` (JSON5 has no octal numbers): the mode is a string.
                throw socket.fail("mode", "must be a string such as \"0660\" (an octal mode, in quotes), got the number \(number); write \"0\(number)\"")
            }
            if let mode = try socket.string("mode", default: nil) {
                guard let value = UInt32(mode, radix: 8), value <= 0o777, value & 0o600 == 0o600 else {
                    throw socket.fail("mode", "must be an octal mode such as \"0660\" that lets the owner read and write, got \"\(mode)\"")
                }
                config.socketMode = value
            }
        }
    }

    static func parseFeel(_ feel: ConfigReader, into config: inout FlywheelConfiguration) {
        feel.only(Self.keys["feel"]!)
        feel.attempt { () throws(FileLineError) in
            guard let field = feel.value("friction") else { return }
            if let name = field.stringValue {
                guard let preset = Friction.preset(name) else {
                    throw feel.fail("friction", "must be a number or one of \"standard\", \"ios-normal\", \"ios-fast\", got \"\(name)\"")
                }
                config.feel.friction = preset
            } else {
                config.feel.friction = Friction(perSecond: try feel.number("friction", in: 0.1...1000, default: 4))
            }
        }
        feel.attempt { () throws(FileLineError) in
            guard let field = feel.value("damping") else { return }
            if let name = field.stringValue {
                guard let preset = SpringParameters.preset(name) else {
                    throw feel.fail("damping", "must be a number or one of \"standard\", \"snappy\", \"critical\", got \"\(name)\"")
                }
                config.feel.spring.damping = preset.damping
            } else {
                config.feel.spring.damping = try feel.number("damping", in: SpringParameters.acceptedDamping, default: 0.35)
            }
        }
        feel.attempt { () throws(FileLineError) in
            config.feel.spring.responseSeconds = try feel.number("response", in: SpringParameters.acceptedResponse, default: 0.3)
        }
        feel.attempt { () throws(FileLineError) in
            if let field = feel.value("min_fling_speed"), field != .null {
                config.feel.minimumFlingSpeed = try feel.number("min_fling_speed", in: 0...1000, default: 0)
            }
        }
        feel.attempt { () throws(FileLineError) in config.feel.maximumSpeed = try feel.number("max_speed", in: 1...1000, default: 60) }
        feel.attempt { () throws(FileLineError) in
            config.feel.releaseSilenceNanoseconds = Nanoseconds(try feel.integer("release_silence_ms", in: 5...2000, default: 100)) * 1_000_000
        }
        feel.attempt { () throws(FileLineError) in
            config.feel.newGestureGapNanoseconds = Nanoseconds(try feel.integer("new_gesture_gap_ms", in: 10...10_000, default: 200)) * 1_000_000
        }
        feel.attempt { () throws(FileLineError) in config.framesPerSecond = try feel.number("frames_hz", in: 0...240, default: 60) }
    }

    static func parseTempo(_ tempo: ConfigReader, into config: inout FlywheelConfiguration) {
        tempo.only(Self.keys["controls.tempo"]!)
        tempo.attempt { () throws(FileLineError) in config.accelerations[.tempo] = try AccelerationKey.curve(tempo, "acceleration") }
        var range = 20...300
        // The bpm is measured against the range, and the table and resolution go with it: once
        // the range is a mistake, they are not judged against a range the file did not give.
        let rangeRead = tempo.attempt { () throws(FileLineError) in
            guard let field = try tempo.present("range") else { return }
            guard case .array(let items) = field, items.count == 2, case .int(let low) = items[0], case .int(let high) = items[1] else {
                throw tempo.fail("range", "must be two whole numbers [low, high], got \(field.encoded())")
            }
            if let problem = TempoRules.rangeProblem(low: low, high: high) { throw tempo.fail("range", problem) }
            range = low...high
        }
        var table = TempoTable.integer
        let tableRead = tempo.attempt { () throws(FileLineError) in table = TempoTable(rawValue: try tempo.choice("table", ["integer", "maelzel"], default: "integer"))! }
        var resolution: BPM = 1
        tempo.attempt { () throws(FileLineError) in
            guard tempo.value("resolution") != nil else { return }
            let text = try tempo.number("resolution", in: 0.1...1, default: 1)
            guard let chosen = TempoDial.resolutions.first(where: { $0 == BPM(text) && abs(Double($0.tenths) - text * 10) < 1e-6 }) else {
                throw tempo.fail("resolution", "must be 0.1, 0.2, 0.5 or 1 (BPM a detent), got \(JSONValue.double(text).encoded())")
            }
            guard table == .integer || !tableRead else { throw tempo.fail("resolution", "applies to the integer table; the maelzel table has its own values") }
            resolution = chosen
        }
        var bounds = DialBounds.rubber
        tempo.attempt { () throws(FileLineError) in bounds = try tempo.choice("bounds", default: DialBounds.rubber) }
        config.tempoDial = TempoDial(range: range, table: table, bounds: bounds, resolution: resolution)
        guard rangeRead else { return }
        tempo.attempt { () throws(FileLineError) in
            if let problem = TempoRules.tableProblem(table, in: range) { throw tempo.fail("table", problem) }
        }
        tempo.attempt { () throws(FileLineError) in
            config.bpm = try tempo.number(
                "bpm", in: Double(range.lowerBound)...Double(range.upperBound), default: min(max(120, Double(range.lowerBound)), Double(range.upperBound)))
        }
    }

    static func parseVolume(_ volume: ConfigReader, into config: inout FlywheelConfiguration) {
        volume.only(Self.keys["controls.volume"]!)
        volume.attempt { () throws(FileLineError) in config.accelerations[.volume] = try AccelerationKey.curve(volume, "acceleration") }
        var cap = 100
        // The step and the start are measured against the cap: not once the cap is a mistake.
        let capRead = volume.attempt { () throws(FileLineError) in
            _ = try volume.present("cap")
            cap = try volume.integer("cap", in: 1...100, default: 100)
        }
        var step = min(2, cap)
        var bounds = DialBounds.rubber
        if capRead {
            volume.attempt { () throws(FileLineError) in step = try volume.integer("step", in: 1...cap, default: min(2, cap)) }
            volume.attempt { () throws(FileLineError) in config.volume = Double(try volume.integer("start", in: 0...cap, default: min(30, cap))) }
        }
        volume.attempt { () throws(FileLineError) in bounds = try volume.choice("bounds", default: DialBounds.rubber) }
        config.volumeDial = VolumeDial(cap: cap, step: step, bounds: bounds)
        volume.attempt { () throws(FileLineError) in
            config.volumeRestoreMax = try volume.integer("restore_max", in: 0...100, default: Self.defaultVolumeRestoreMax)
        }
    }

    static func parseScrub(_ scrub: ConfigReader, into config: inout FlywheelConfiguration) {
        scrub.only(Self.keys["controls.scrub"]!)
        scrub.attempt { () throws(FileLineError) in config.accelerations[.scrub] = try AccelerationKey.curve(scrub, "acceleration") }
        scrub.attempt { () throws(FileLineError) in
            if scrub.value("commit") != nil { config.scrubCommit = try scrub.choice("commit", default: ScrubCommitPolicy.onRest) }
        }
        scrub.attempt { () throws(FileLineError) in config.detentsPerSweep = try scrub.number("detents_per_sweep", in: 1...100_000, default: 200) }
        scrub.attempt { () throws(FileLineError) in
            guard let field = scrub.value("seconds_per_detent") else { return }
            guard case .array(let items) = field, items.count == 2, let low = items[0].doubleValue, let high = items[1].doubleValue,
                low > 0, low <= high, high <= 3600
            else {
                throw scrub.fail("seconds_per_detent", "must be [low, high] seconds with 0 < low ≤ high ≤ 3600, got \(field.encoded())")
            }
            config.secondsPerDetent = low...high
        }
        scrub.attempt { () throws(FileLineError) in
            config.armingNanoseconds = Nanoseconds(try scrub.integer("arming_ms", in: 0...5000, default: 200)) * 1_000_000
        }
        scrub.attempt { () throws(FileLineError) in
            guard let field = scrub.value("shuttle_rates") else { return }
            guard case .array(let items) = field, (1...7).contains(items.count) else {
                throw scrub.fail("shuttle_rates", "must be 1 to 7 rates for ring positions 1…7, got \(field.encoded())")
            }
            let rates = items.compactMap(\.doubleValue)
            guard rates.count == items.count, rates.allSatisfy({ $0 > 0 && $0 <= 1000 }), rates == rates.sorted(), Set(rates).count == rates.count else {
                throw scrub.fail("shuttle_rates", "must be increasing positive numbers (times real time), got \(field.encoded())")
            }
            config.shuttleRates = ShuttleRates(rates: rates)
        }
    }

    static func parseMode(_ mode: ConfigReader, into config: inout FlywheelConfiguration) {
        mode.only(Self.keys["controls.mode"]!)
        // The initial mode is one of the segments: not judged once the segments are a mistake.
        let segmentsRead = mode.attempt { () throws(FileLineError) in
            guard let field = try mode.present("segments") else { return }
            guard case .array(let items) = field, !items.isEmpty else {
                throw mode.fail("segments", "must be a non-empty list of \"tempo\", \"scrub\" and \"volume\", got \(field.encoded())")
            }
            let controls = items.compactMap { $0.stringValue.flatMap(Control.init(rawValue:)) }
            guard controls.count == items.count, Set(controls).count == controls.count else {
                throw mode.fail("segments", "must list \"tempo\", \"scrub\" and \"volume\", each at most once, got \(field.encoded())")
            }
            config.modes = controls
        }
        guard segmentsRead else { return }
        mode.attempt { () throws(FileLineError) in
            let initial = try mode.choice("initial", config.modes.map(\.rawValue), default: config.modes[0].rawValue)
            config.initialMode = Control(rawValue: initial) ?? config.modes[0]
        }
    }

    /// The devices; one with a mistake is left out (its mistakes kept), the others read on.
    static func parseDevices(_ root: ConfigReader, notices: inout [ConfigurationNotice]) -> [DeviceEntry] {
        guard let field = root.value("devices") else { return [] }
        guard case .array(let items) = field else {
            root.problems.add(root.fail("devices", "must be a list of devices, got \(field.kindDescription)"))
            return []
        }
        var entries: [DeviceEntry] = []
        var claims = DeviceClaims()
        for index in items.indices {
            let key = "devices[\(index)]"
            let device = ConfigReader(
                file: root.file, lines: root.lines, path: key, value: items[index], line: root.lines[key] ?? root.line("devices"), problems: root.problems)
            let before = root.problems.errors.count
            guard let entry = parseDevice(device, notices: &notices), root.problems.errors.count == before else { continue }
            if let clash = claims.claim(entry, index: index) {
                root.problems.add(device.fail(clash.key, clash.problem))
                continue
            }
            entries.append(entry)
        }
        return entries
    }

    /// One device entry, or nil when it cannot be read at all (no profile); its other mistakes go
    /// to the reader's problems.
    static func parseDevice(_ device: ConfigReader, notices: inout [ConfigurationNotice]) -> DeviceEntry? {
        device.only(Self.keys["devices[]"]!)
        var profile = ""
        guard device.attempt({ () throws(FileLineError) in
            guard let text = try device.string("profile", default: nil), !text.isEmpty else {
                throw device.missing("profile", line: device.objectLine, "name the device's hardware/ profile, such as \"ec11\"")
            }
            guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw device.fail("profile", "must be a profile id (letters, digits, - and _), got \"\(text)\"")
            }
            profile = text
        }) else { return nil }
        var path: String?
        device.attempt { () throws(FileLineError) in
            path = try device.string("path", default: nil)
            if let path, !path.hasPrefix("/dev/") { throw device.fail("path", "must be a device node under /dev/, got \"\(path)\"") }
        }
        var gpio: DeviceEntry.GPIOLines?
        if device.value("gpio") != nil { gpio = parseGPIO(device.child("gpio")) }
        device.attempt { () throws(FileLineError) in
            if let gpio, let clash = GPIOLinesCheck.clash(a: gpio.a, b: gpio.b, button: gpio.button, on: gpio.chip) { throw device.fail("gpio", clash) }
            if path != nil && gpio != nil { throw device.fail("gpio", "cannot be given together with 'path': a device is either an evdev node or GPIO lines") }
        }
        var control = "mode"
        device.attempt { () throws(FileLineError) in
            control = try device.choice("control", ["mode"] + Control.allCases.map(\.rawValue) + ["switch"], default: "mode")
        }
        var role = DeviceRole.knob
        device.attempt { () throws(FileLineError) in role = try device.choice("role", default: .knob) }
        var entry = DeviceEntry(
            name: profile, profile: profile, path: path, gpio: gpio, route: role == .buttons ? .none : KnobRoute(name: control) ?? .followMode, grab: false)
        device.attempt { () throws(FileLineError) in entry.name = try device.string("name", default: profile) ?? profile }
        device.attempt { () throws(FileLineError) in entry.grab = try device.bool("grab", default: false) }
        device.attempt { () throws(FileLineError) in entry.light = try device.choice("led", default: .off) }
        device.attempt { () throws(FileLineError) in
            if device.value("region") != nil { entry.region = try parseRegion(device.child("region")) }
        }
        if device.value("buttons") != nil { (entry.buttonActions, entry.buttonGestures) = parseButtons(device.child("buttons"), perDevice: true) }
        device.attempt { () throws(FileLineError) in
            let turning = try AccelerationKey.device(device, notices: &notices)
            entry.knobOptions.inertia = turning.inertia
            entry.knobOptions.acceleration = turning.acceleration
        }
        device.attempt { () throws(FileLineError) in entry.knobOptions.invert = try device.bool("invert", default: false) }
        device.attempt { () throws(FileLineError) in
            entry.knobOptions.detentsPerStep = try device.integer("detents_per_step", in: KnobOptions.acceptedDetentsPerStep, default: 1)
        }
        return entry
    }

    /// A device's `gpio: { chip, a, b, button }`, or nil when a line is missing or not a line.
    static func parseGPIO(_ lines: ConfigReader) -> DeviceEntry.GPIOLines? {
        lines.only(Self.keys["devices[].gpio"]!)
        func line(_ name: String, required: Bool) throws(FileLineError) -> String? {
            guard let value = lines.value(name) else {
                if required { throw lines.missing(name, line: lines.objectLine, "give a line offset or name") }
                return nil
            }
            if case .int(let offset) = value, offset >= 0, offset < 10_000 { return String(offset) }
            if let name = value.stringValue, !name.isEmpty { return name }
            throw lines.fail(name, "must be a line offset (a whole number) or a line name, got \(value.encoded())")
        }
        var chip: String?
        var a: String?, b: String?, button: String?
        let read = [
            lines.attempt { () throws(FileLineError) in
                chip = try lines.string("chip", default: nil)
                if let chip, chip.isEmpty {
                    throw lines.fail("chip", "must name a chip (such as \"gpiochip0\" or a label), or be left out for the Raspberry Pi header")
                }
            },
            lines.attempt { () throws(FileLineError) in a = try line("a", required: true) },
            lines.attempt { () throws(FileLineError) in b = try line("b", required: true) },
            lines.attempt { () throws(FileLineError) in button = try line("button", required: false) },
        ]
        guard read.allSatisfy({ $0 }), let a, let b else { return nil }
        return DeviceEntry.GPIOLines(chip: GPIOChipSelector(configured: chip), a: a, b: b, button: button)
    }

    /// `buttons: { BTN_0: "mode", BTN_5: "tap", "260": "hold-scrub" }`: keys are BTN_0…BTN_9 or a
    /// decimal key code; actions `mode`, `tap`, `hold-tempo`, `hold-scrub`, `hold-volume`, `hold-fine`
    /// (fine control while held), `none` (only reported).
    /// A device's own buttons (`perDevice`) may also be `{ press: "none", long: "mode", double: "tap" }`
    /// (long and double: `mode`, `tap` or `none`).
    static func parseButtons(
        _ buttons: ConfigReader, perDevice: Bool = false
    ) -> (actions: [UInt16: ButtonAction], gestures: [UInt16: ButtonGestures]) {
        var actions: [UInt16: ButtonAction] = [:]
        var gestures: [UInt16: ButtonGestures] = [:]
        for (key, value) in buttons.pairs {
            buttons.attempt { () throws(FileLineError) in
                // Any key: `only` does not see these, so a NaN action is refused here.
                try buttons.requireFinite(value, at: buttons.keyPath(key))
                guard let code = KeyCode.button(named: key) else {
                    throw buttons.fail(key, "must name a button as BTN_0…BTN_9 or a decimal key code such as \"260\"")
                }
                guard case .object = value else {
                    actions[code] = try buttonAction(buttons, key, default: "mode")
                    return
                }
                guard perDevice else {
                    throw buttons.fail(key, "must be an action such as \"mode\"; long and double presses are given per device, in devices[].buttons")
                }
                let button = buttons.child(key)
                button.only(Self.keys["devices[].buttons.BUTTON"]!)
                let press = try buttonAction(button, "press", default: "mode")
                var gesture = ButtonGestures()
                if button.value("long") != nil { gesture.long = try buttonAction(button, "long", default: "none", hold: false) }
                if button.value("double") != nil { gesture.double = try buttonAction(button, "double", default: "none", hold: false) }
                if press.isHold, gesture != ButtonGestures() {
                    throw button.fail("press", "cannot be a hold-* action on a button with a long or double press (a hold lasts as long as the press)")
                }
                actions[code] = press
                if gesture != ButtonGestures() { gestures[code] = gesture }
            }
        }
        return (actions, gestures)
    }

    /// The action `key` names: `mode`, `tap`, `none`, or (with `hold`) `hold-tempo`, `hold-scrub`,
    /// `hold-volume`, `hold-fine`, `<control>+` and `<control>-` (a step, repeated while held).
    static func buttonAction(_ reader: ConfigReader, _ key: String, default fallback: String, hold: Bool = true) throws(FileLineError) -> ButtonAction {
        let holds = hold ? Control.allCases.map { "hold-" + $0.rawValue } + ["hold-fine"] + Control.allCases.flatMap { [$0.rawValue + "+", $0.rawValue + "-"] } : []
        let action = try reader.choice(key, ["mode", "tap", "none"] + holds, default: fallback)
        switch action {
        case "tap": return .tap
        case "mode": return .mode
        case "none": return ButtonAction.none
        case "hold-fine": return .holdFine
        case let name where name.hasSuffix("+") || name.hasSuffix("-"):
            return Control(rawValue: String(name.dropLast())).map { ButtonAction.step($0, name.hasSuffix("+") ? 1 : -1) } ?? .mode
        default: return Control(rawValue: String(action.dropFirst(5))).map(ButtonAction.hold) ?? .mode
        }
    }

    /// `region: { shape: "ring", center: [x, y], min_radius: r, detents_per_turn: 24 }` or
    /// `region: { shape: "strip", axis: "x", from: a, to: b, detents: 32 }`, in device units.
    static func parseRegion(_ region: ConfigReader) throws(FileLineError) -> TouchRegion {
        let shape = try region.choice("shape", ["ring", "strip"], default: "ring")
        if shape == "ring" {
            region.only(Self.keys["devices[].region (ring)"]!)
            guard let field = region.value("center") else {
                throw region.missing("center", line: region.objectLine, "give the ring's centre [x, y] in device units")
            }
            guard case .array(let items) = field, items.count == 2, let x = items[0].doubleValue, let y = items[1].doubleValue,
                x.isFinite, y.isFinite
            else { throw region.fail("center", "must be [x, y] in device units, got \(field.encoded())") }
            return .ring(
                centerX: x, centerY: y, minimumRadius: try region.number("min_radius", in: 0...1e9, default: 0),
                detentsPerTurn: try region.number("detents_per_turn", in: 1...3600, default: 24))
        }
        region.only(Self.keys["devices[].region (strip)"]!)
        let axis = try region.choice("axis", ["x", "y"], default: "x")
        let from = try region.number("from", in: -1e9...1e9, default: 0)
        let to = try region.number("to", in: -1e9...1e9, default: 0)
        guard from != to else { throw region.fail("to", "must differ from 'from' (the strip has no length)") }
        return .strip(alongX: axis == "x", from: from, to: to, detents: try region.number("detents", in: 1...100_000, default: 32))
    }

    /// The scrubber these settings describe, over `durationSeconds`.
    package func scrubber(durationSeconds: Double) -> Scrubber {
        var scrubber = Scrubber(durationSeconds: durationSeconds)
        scrubber.detentsPerSweep = detentsPerSweep
        scrubber.secondsPerDetentRange = secondsPerDetent
        scrubber.armingNanoseconds = armingNanoseconds
        return scrubber
    }
}
