import FlywheelDaemon
import FlywheelCore
import FlywheelFormats
import FlywheelSimulator

/// `flywheel replay FILE [--control tempo|scrub] [--frames HZ] [...]`: decoder → feel → control
/// in virtual time, printing the events the socket would carry.
enum ReplayCommand {
    static let usage = """
        flywheel replay FILE [--control tempo|scrub] [--frames HZ] [--steps-per-detent 1|2|4] [--channels A,B]
                      [--bpm N] [--table integer|maelzel] [--duration S] [--position S] \(FeelOptions.usage)
            Run a recording (.vcd, .edges, evemu) or a scenario (.sim) through the decoder, the physics and a
            control in virtual time and print the events as JSON lines, then exit. --frames adds continuous
            frames at HZ while in motion (default 0: none).
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "replay")
        let controlName = try args.option("control") ?? "tempo"
        guard let control = Control(rawValue: controlName) else {
            throw .usage("--control takes \(Control.allCases.map(\.rawValue).joined(separator: " or ")), not '\(controlName)'")
        }
        let framesHz = try args.number("frames", in: 0...1000) ?? 0
        let stepsText = try args.option("steps-per-detent") ?? "4"
        guard let stepsValue = Int(stepsText), let steps = StepsPerDetent(rawValue: stepsValue) else {
            throw .usage("--steps-per-detent must be 1, 2 or 4, not '\(stepsText)'")
        }
        let channels = try args.option("channels")
        let hardware = try args.option("hardware")
        let bpm = try FeelOptions.number(&args, "bpm", default: 120)!
        let tableText = try args.option("table") ?? "integer"
        guard let table = TempoTable(rawValue: tableText) else { throw .usage("--table takes integer or maelzel, not '\(tableText)'") }
        let duration = try FeelOptions.number(&args, "duration", default: 214)!
        let position = try FeelOptions.number(&args, "position", default: 0)!
        guard duration >= 0 else { throw .usage("--duration must not be negative") }
        let parameters = try FeelOptions.parse(&args)
        let path = try args.positionals("one FILE to replay", count: 1...1)[0]

        let timeline = try InputTimeline.load(path, hardware: hardware, steps: steps, channels: channels, keepTimes: true)
        let core = DaemonCore(
            parameters: parameters, tempoDial: TempoDial(table: table), bpm: bpm,
            scrubber: Scrubber(durationSeconds: duration, positionSeconds: position), modes: [control], framesPerSecond: framesHz)
        let device = InputDevice(name: timeline.deviceName, path: path, kind: timeline.kind, profile: timeline.profileID, route: .pinned(control))
        var text = ""
        for message in Self.messages(timeline, device: device, core: core) {
            text += String(decoding: message.bytesWithoutSeq, as: UTF8.self)
        }
        console.out(text)
    }

    /// The messages the daemon's pipeline makes of a timeline played from its first item's time
    /// (frames included when the core has a frame rate): what a client watching every class,
    /// with frames, receives.
    static func messages(_ timeline: InputTimeline, device: InputDevice, core: DaemonCore) -> [ServerMessage] {
        var pipeline = Pipeline(core: core)
        pipeline.wantsFrames = core.framesPerSecond > 0
        let playback = Playback(
            items: timeline.items.map { ($0.timeNanoseconds, $0.item) }, endNanoseconds: timeline.endNanoseconds, device: device,
            loops: false, start: 0)
        return pipeline.play(playback) + pipeline.runToEnd()
    }
}
