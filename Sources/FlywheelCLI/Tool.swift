import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// One of the tool's commands: its name, the group it is listed in, a line saying what it does, its
/// usage and what runs it.
struct ToolCommand: Sendable {
    /// Where `flywheel --help` lists a command: what a user runs every day first.
    enum Group: String, CaseIterable, Sendable {
        case everyday = "Everyday"
        case bridges = "Bridges to music software and the desktop"
        case recordings = "Recordings, the simulator and the feel"
    }

    let name: String
    let group: Group
    /// What it does, in one short line (`flywheel --help`'s list).
    let summary: String
    let usage: String
    let run: @Sendable (_ arguments: [String], _ console: Console) throws(ToolError) -> Void
}

/// The `flywheel` command-line tool.
public enum FlywheelTool {
    static let commands: [ToolCommand] = [
        ToolCommand(name: "watch", group: .everyday, summary: "show flywheeld's events live, a readable line each", usage: WatchCommand.usage, run: WatchCommand.run),
        ToolCommand(name: "send", group: .everyday, summary: "send one command to flywheeld and print its answer", usage: SendCommand.usage, run: SendCommand.run),
        ToolCommand(name: "devices", group: .everyday, summary: "list the input devices and GPIO chips, and what Flywheel makes of each", usage: DevicesCommand.usage, run: DevicesCommand.run),
        ToolCommand(name: "connect", group: .everyday, summary: "talk to flywheeld both ways on standard input and output", usage: ConnectCommand.usage, run: ConnectCommand.run),
        ToolCommand(name: "mpd", group: .bridges, summary: "drive MPD: scrub the song, its volume, buttons for play and pause", usage: MPDCommand.usage, run: MPDCommand.run),
        ToolCommand(name: "volumio", group: .bridges, summary: "keep Volumio's volume in step with the knob", usage: HTTPVolumeCommand.volumioUsage, run: HTTPVolumeCommand.volumio),
        ToolCommand(name: "moode", group: .bridges, summary: "keep moOde's volume in step with the knob", usage: HTTPVolumeCommand.moodeUsage, run: HTTPVolumeCommand.moode),
        ToolCommand(name: "pipewire", group: .bridges, summary: "keep PipeWire's default sink's volume in step with the knob", usage: PipeWireCommand.usage, run: PipeWireCommand.run),
        ToolCommand(name: "alsa", group: .bridges, summary: "drive an ALSA mixer control from the knob", usage: ALSACommand.usage, run: ALSACommand.run),
        ToolCommand(name: "midi", group: .bridges, summary: "write the events as MIDI (clock, control changes, notes)", usage: MIDICommand.usage, run: MIDICommand.run),
        ToolCommand(name: "osc", group: .bridges, summary: "send the events as OSC over UDP (klick, a DAW)", usage: OSCCommand.usage, run: OSCCommand.run),
        ToolCommand(name: "mqtt", group: .bridges, summary: "put the controls on an MQTT broker (Home Assistant)", usage: MQTTCommand.usage, run: MQTTCommand.run),
        ToolCommand(name: "keys", group: .bridges, summary: "a virtual keyboard whose keys the knobs press", usage: KeysCommand.usage, run: KeysCommand.run),
        ToolCommand(name: "record", group: .recordings, summary: "record a device or GPIO lines to a file", usage: RecordCommand.usage, run: RecordCommand.run),
        ToolCommand(name: "replay", group: .recordings, summary: "print what flywheeld makes of a recording or a scenario", usage: ReplayCommand.usage, run: ReplayCommand.run),
        ToolCommand(name: "sim", group: .recordings, summary: "run the firmware simulator, or play a scenario into the kernel", usage: SimCommand.usage, run: SimCommand.run),
        ToolCommand(name: "decode", group: .recordings, summary: "decode a quadrature or evemu recording into detents", usage: DecodeCommand.usage, run: DecodeCommand.run),
        ToolCommand(name: "plot", group: .recordings, summary: "plot a flick's coast and snap, to tune the feel", usage: PlotCommand.usage, run: PlotCommand.run),
        ToolCommand(name: "soak", group: .recordings, summary: "run flywheeld for minutes of random gestures and check every detent", usage: SoakCommand.usage, run: SoakCommand.run),
    ]

    /// `flywheel`, `flywheel --help`: the commands a line each, everyday ones first.
    static var usage: String {
        let width = commands.map(\.name.count).max() ?? 0
        var text = "flywheel — knobs, jog wheels and touch panels with physical feel.\n"
        for group in ToolCommand.Group.allCases {
            text += "\n\(group.rawValue):\n"
            for command in commands where command.group == group {
                text += "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.summary + "\n"
            }
        }
        return text + """

            flywheel help COMMAND (or flywheel COMMAND --help) shows one command's options and examples;
            flywheel --version the version; --verbose, with any command, names the C function in a failed
            system call's sentence. The daemon itself is flywheeld (flywheeld --help).
            """
    }

    /// `flywheel help COMMAND`: that command's usage alone.
    static func help(for name: String) throws(ToolError) -> String {
        guard let command = commands.first(where: { $0.name == name }) else { throw unknown(name) }
        return "Usage:\n" + command.usage + "\n"
    }

    static func unknown(_ name: String) -> ToolError {
        .usage("there is no command '\(name)'; 'flywheel --help' lists the commands")
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: Console) -> Int32 {
        // `--verbose`, anywhere: a failed system call's sentence names its C function.
        var arguments = arguments
        if arguments.contains("--verbose") {
            arguments.removeAll { $0 == "--verbose" }
            SystemError.namesFunctions.store(true, ordering: .relaxed)
        }
        guard let name = arguments.first else {
            console.err(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(ToolError) {
            switch name {
            case "--help", "-h", "help":
                if name == "help", let topic = rest.first { console.out(try help(for: topic)) } else { console.out(usage + "\n") }
            case "--version":
                console.out("flywheel \(FlywheelVersion.string) (libgpiod \(LibraryVersions.gpiod), v\(LibraryVersions.gpiodAPI) API)\n")
            default:
                guard let command = commands.first(where: { $0.name == name }) else { throw unknown(name) }
                if rest.contains("--help") || rest.contains("-h") {
                    console.out(try help(for: name))
                } else {
                    try command.run(rest, console)
                }
            }
            return 0
        } catch {
            let help = commands.contains { $0.name == name } ? "flywheel \(name) --help" : "flywheel --help"
            console.err("flywheel: " + error.sentence(help: help) + "\n")
            return error.status
        }
    }
}
