import FlywheelDaemon
import FlywheelCore
import FlywheelFormats
import FlywheelSimulator

/// `flywheel replay FILE [--control tempo|scrub|volume|switch] [--frames HZ] [...]`: decoder → feel → control
/// in virtual time, printing the events the socket would carry.
enum ReplayCommand {
    static let usage = """
        flywheel replay FILE|SCENARIO [--config PATH] [--control tempo|scrub|volume|switch] [--frames HZ] [--steps-per-detent 1|2|4]
                      [--channels A,B] [--hardware DIR] [--bpm N] [--table integer|maelzel] [--duration S] [--position S]
                      \(FeelOptions.usage)
            Run a recording (.vcd, .edges, evemu) or a scenario (a .sim file, or a bundled one by name such
            as flick or demo) through flywheeld's own pipeline
            (device interpretation, physics, controls, buttons, the shuttle ring, gaps) in virtual time and
            print the messages a client watching every class receives, without seq, then exit. The
            controls are set up as flywheeld's from --config (default: the defaults); --control pins the
            knob to one control (default: it follows the mode switch); --frames adds continuous frames at
            HZ while in motion (default 0: none); --duration is the scrub's length until set (default as
            flywheeld's --scrub-duration: 0, or 214 for the demo).
            Example: flywheel replay flick --control tempo --frames 60
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "replay")
        let configPath = try args.option("config")
        let controlName = try args.option("control")
        var route = KnobRoute.followMode
        if let controlName {
            if controlName == "switch" {
                route = .modeSwitch  // a touch strip driving the mode switch
            } else {
                guard let control = Control(rawValue: controlName) else {
                    throw .usage("--control takes tempo, scrub, volume or switch, not '\(controlName)'")
                }
                route = .pinned(control)
            }
        }
        let framesHz = try args.number("frames", in: 0...1000) ?? 0
        let stepsText = try args.option("steps-per-detent") ?? "4"
        guard let stepsValue = Int(stepsText), let steps = StepsPerDetent(rawValue: stepsValue) else {
            throw .usage("--steps-per-detent must be 1, 2 or 4, not '\(stepsText)'")
        }
        let channels = try args.option("channels")
        let hardware = try args.option("hardware")
        var configuration = FlywheelConfiguration()
        if let configPath {
            do { configuration = try ConfigurationFile(path: configPath).load() } catch { throw ToolError(error) }
        }
        if let bpm = try FeelOptions.number(&args, "bpm") { configuration.bpm = bpm }
        if let tableText = try args.option("table") {
            guard let table = TempoTable(rawValue: tableText) else { throw .usage("--table takes integer or maelzel, not '\(tableText)'") }
            configuration.tempoDial = TempoDial(range: configuration.tempoDial.range, table: table)
        }
        let givenDuration = try FeelOptions.number(&args, "duration")
        let position = try FeelOptions.number(&args, "position")
        if let givenDuration, givenDuration < 0 { throw .usage("--duration must not be negative") }
        configuration.feel = try FeelOptions.parse(&args, base: configuration.feel)
        let name = try args.positionals("one FILE to replay", count: 1...1)[0]
        let path = try BundledScenarios(hardware: hardware).path(for: name)
        // As flywheeld's --scrub-duration: 0 unless given, the demo's 214 s.
        let duration = givenDuration ?? DaemonOptions.defaultScrubDuration(playing: name)

        let timeline = try InputTimeline.load(path, hardware: hardware, steps: steps, channels: channels)
        var core = DaemonCore(configuration: configuration, scrubDurationSeconds: duration)
        core.framesPerSecond = framesHz
        if let controlName, let control = Control(rawValue: controlName) { _ = core.selectMode(control) }
        if let position { _ = core.handle(.setScrub(duration: nil, position: position), at: 0) }
        // The configured device for the timeline's profile, as flywheeld plays it; --control pins its knob.
        var device = timeline.device(path: path, configuration: configuration)
        if controlName != nil { device.route = route }
        // Printed as the run goes (its memory is a step's messages, however long it runs); a
        // recording that ends with a button down ends too: its device is removed at its end.
        var text = ""
        Self.play(timeline, device: device, core: core) { messages in
            for message in messages { text += String(decoding: message.bytesWithoutSeq, as: UTF8.self) }
            if text.utf8.count >= 1 << 16 {
                console.out(text)
                text = ""
            }
        }
        console.out(text)
    }

    /// The messages the daemon's pipeline makes of a timeline played from its first item's time
    /// (frames included when the core has a frame rate): what a client watching every class,
    /// with frames, receives.
    static func messages(_ timeline: InputTimeline, device: InputDevice, core: DaemonCore) -> [ServerMessage] {
        var all: [ServerMessage] = []
        play(timeline, device: device, core: core) { all += $0 }
        return all
    }

    /// ``messages(_:device:core:)`` handed to `deliver` a step at a time.
    static func play(_ timeline: InputTimeline, device: InputDevice, core: DaemonCore, _ deliver: ([ServerMessage]) -> Void) {
        let pipeline = Pipeline(core: core)
        pipeline.wantsFrames = core.framesPerSecond > 0
        let playback = Playback(
            items: timeline.items.map { ($0.timeNanoseconds, $0.item) }, endNanoseconds: timeline.endNanoseconds, device: device,
            loops: false, start: 0)
        pipeline.play(playback)
        pipeline.runToEnd(deliver)
    }
}
