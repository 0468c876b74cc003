import FlywheelDaemon
import FlywheelIO

/// `flywheel midi [--socket PATH] --device PATH [--channel N] [--buttons notes|cc] [--clock]`
enum MIDICommand {
    static let usage = """
        flywheel midi [--socket PATH] --device PATH [--channel N] [--buttons notes|cc] [--clock]
            Write flywheeld's events as MIDI to a raw MIDI port (e.g. /dev/snd/midiC1D0) on channel N (1–16,
            default 1): knob steps as relative CC 60 (1 = up a step, 65 = down), buttons as notes from C2 (36)
            for BTN_0 (or, with --buttons cc, controllers from 36: 127 pressed, 0 released), a scrub commit as
            Song Position Pointer; with --clock, Start (FA), then 24 clock ticks
            (F8) a quarter note at flywheeld's tempo, and Stop (FC) on exit. Reconnects to flywheeld; exits on
            SIGTERM.
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "midi")
        let socket = try args.option("socket") ?? WatchCommand.defaultSocket()
        guard let device = try args.option("device") else { throw .usage("'midi' needs --device PATH (a raw MIDI port such as /dev/snd/midiC1D0)") }
        let channel = try args.integer("channel", in: 1...16) ?? 1
        let clock = args.flag("clock")
        let styleName = try args.option("buttons") ?? "notes"
        guard let buttons = MIDIMessages.ButtonStyle(rawValue: styleName) else { throw .usage("--buttons takes notes or cc, not '\(styleName)'") }
        _ = try args.positionals("no files", count: 0...0)
        do {
            let output = try FileOutput.openDevice(device)
            try MIDIBridge(flywheel: socket, output: output, channel: channel, buttons: buttons, clock: clock, log: { console.err($0 + "\n") }).run()
        } catch { throw ToolError("\(error)") }
    }
}
