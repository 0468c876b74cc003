import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// One of the tool's commands: its name, its usage and what runs it.
struct ToolCommand: Sendable {
    let name: String
    let usage: String
    let run: @Sendable (_ arguments: [String], _ console: Console) throws(ToolError) -> Void
}

/// The `flywheel` command-line tool.
public enum FlywheelTool {
    static let commands: [ToolCommand] = [
        ToolCommand(name: "decode", usage: DecodeCommand.usage, run: DecodeCommand.run),
        ToolCommand(name: "sim", usage: SimCommand.usage, run: SimCommand.run),
        ToolCommand(name: "plot", usage: PlotCommand.usage, run: PlotCommand.run),
        ToolCommand(name: "replay", usage: ReplayCommand.usage, run: ReplayCommand.run),
        ToolCommand(name: "watch", usage: WatchCommand.usage, run: WatchCommand.run),
        ToolCommand(name: "send", usage: SendCommand.usage, run: SendCommand.run),
        ToolCommand(name: "connect", usage: ConnectCommand.usage, run: ConnectCommand.run),
        ToolCommand(name: "mpd", usage: MPDCommand.usage, run: MPDCommand.run),
        ToolCommand(name: "osc", usage: OSCCommand.usage, run: OSCCommand.run),
        ToolCommand(name: "mqtt", usage: MQTTCommand.usage, run: MQTTCommand.run),
        ToolCommand(name: "volumio", usage: HTTPVolumeCommand.volumioUsage, run: HTTPVolumeCommand.volumio),
        ToolCommand(name: "moode", usage: HTTPVolumeCommand.moodeUsage, run: HTTPVolumeCommand.moode),
        ToolCommand(name: "pipewire", usage: PipeWireCommand.usage, run: PipeWireCommand.run),
        ToolCommand(name: "midi", usage: MIDICommand.usage, run: MIDICommand.run),
        ToolCommand(name: "alsa", usage: ALSACommand.usage, run: ALSACommand.run),
        ToolCommand(name: "keys", usage: KeysCommand.usage, run: KeysCommand.run),
        ToolCommand(name: "devices", usage: DevicesCommand.usage, run: DevicesCommand.run),
        ToolCommand(name: "record", usage: RecordCommand.usage, run: RecordCommand.run),
        ToolCommand(name: "soak", usage: SoakCommand.usage, run: SoakCommand.run),
    ]

    static let usage = """
        flywheel — knobs, jog wheels and touch panels with physical feel.

        Usage:
        \(commands.map(\.usage).joined(separator: "\n"))
            flywheel COMMAND --help
            flywheel --version
        """

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let name = arguments.first else {
            console.err(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(ToolError) {
            switch name {
            case "--help", "-h", "help":
                console.out(usage + "\n")
            case "--version":
                console.out("flywheel \(FlywheelVersion.string) (libgpiod \(LibraryVersions.gpiod), v\(LibraryVersions.gpiodAPI) API)\n")
            default:
                guard let command = commands.first(where: { $0.name == name }) else {
                    throw ToolError.usage("Unknown command '\(name)'; run 'flywheel --help' for the commands")
                }
                if rest.contains("--help") || rest.contains("-h") {
                    console.out("Usage:\n" + command.usage + "\n")
                } else {
                    try command.run(rest, console)
                }
            }
            return 0
        } catch {
            console.err("flywheel: " + error.description + "\n")
            return error.status
        }
    }
}
