import FlywheelDaemon
import FlywheelIO

/// `flywheel midi [--socket PATH] --device PATH [--channel N] [--clock [--rt-priority N]]
/// [--knob-cc [CONTROL=]N ...] [--buttons notes|cc] [--button BUTTON=note:N|cc:N ...]`
enum MIDICommand {
    static let usage = """
        flywheel midi [--socket PATH] --device PATH [--channel N] [--clock [--rt-priority N]]
                      [--knob-cc [CONTROL=]N ...] [--buttons notes|cc] [--button BUTTON=note:N|cc:N ...]
            Write flywheeld's events as MIDI to a raw MIDI port (e.g. /dev/snd/midiC1D0) on channel N (1–16,
            default 1): knob steps as relative CC (n steps up = n, n down = 64 + n: 1 up a detent, 65 down;
            a tempo step is a detent, a volume step a percent, a scrub step its direction), buttons as notes
            from C2 (36) for BTN_0, a scrub commit as Song Position Pointer; with --clock, Start (FA), then 24
            clock ticks (F8) a quarter note at flywheeld's tempo, and Stop (FC) on exit; --rt-priority N
            runs it under SCHED_FIFO at priority N (1–99: root, CAP_SYS_NICE or an RLIMIT_RTPRIO), so that a
            busy machine delays its ticks less.
            --knob-cc N sends every control's steps to controller N (0–119, default 60); --knob-cc
            CONTROL=N one control's (tempo, volume or scrub); may be repeated. --buttons cc sends buttons as
            controllers from 36 (127 pressed, 0 released) instead of notes; --button BUTTON=note:N or
            BUTTON=cc:N (BUTTON as BTN_0…BTN_9 or a key code) sends one button as note N (0–127) or
            controller N (0–119); may be repeated. Reconnects to flywheeld; a port that fails a write
            (unplugged) is said once and reopened with backoff, Start again with --clock. Exits on SIGTERM.
            Example: flywheel midi --device /dev/snd/midiC1D0 --clock --knob-cc tempo=20
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "midi")
        let socket = try SocketOption.path(&args)
        guard let device = try args.option("device") else { throw .usage("'midi' needs --device PATH (a raw MIDI port such as /dev/snd/midiC1D0)", help: true) }
        let channel = try args.integer("channel", in: 1...16) ?? 1
        let clock = args.flag("clock")
        let priority = try args.integer("rt-priority", in: RealtimeScheduling.priorities)
        let mapping = try mapping(&args)
        _ = try args.positionals("no files", count: 0...0)
        do {
            if let priority { try RealtimeScheduling.useFIFO(priority: priority) }
            try MIDIBridge(flywheel: socket, devicePath: device, channel: channel, mapping: mapping, clock: clock, log: { console.err($0 + "\n") }).run()
        } catch { throw ToolError("\(error)") }
    }

    /// The mapping from --knob-cc, --buttons and --button.
    static func mapping(_ args: inout Arguments) throws(ToolError) -> MIDIMapping {
        var mapping = MIDIMapping()
        for text in try args.options("knob-cc") where !mapping.setController(text) {
            let controls = MIDIMapping.Control.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("--knob-cc takes a controller number from 0 to 119, or CONTROL=N with CONTROL one of \(controls), not '\(text)'")
        }
        let styleName = try args.option("buttons") ?? "notes"
        guard let style = MIDIMapping.ButtonStyle(rawValue: styleName) else { throw .usage("--buttons takes notes or cc, not '\(styleName)'") }
        mapping.buttonStyle = style
        for text in try args.options("button") where !mapping.setButton(text) {
            throw .usage("--button takes BUTTON=note:N (0–127) or BUTTON=cc:N (0–119) with BUTTON as BTN_0…BTN_9 or a key code, not '\(text)'")
        }
        return mapping
    }
}
