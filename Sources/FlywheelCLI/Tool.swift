import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// The `flywheel` command-line tool.
public enum FlywheelTool {
    static let usage = """
        flywheel — knobs, jog wheels and touch panels with physical feel.

        Usage:
        \(DecodeCommand.usage)
        \(SimCommand.usage)
        \(PlotCommand.usage)
        \(ReplayCommand.usage)
        \(WatchCommand.usage)
        \(MPDCommand.usage)
        \(OSCCommand.usage)
        \(MIDICommand.usage)
        \(DevicesCommand.usage)
        \(RecordCommand.usage)
        \(SoakCommand.usage)
            flywheel --version
        """

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let command = arguments.first else {
            console.err(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(ToolError) {
            switch command {
            case "decode": try DecodeCommand.run(rest, console: console)
            case "sim": try SimCommand.run(rest, console: console)
            case "plot": try PlotCommand.run(rest, console: console)
            case "replay": try ReplayCommand.run(rest, console: console)
            case "watch": try WatchCommand.run(rest, console: console)
            case "send": try WatchCommand.send(rest, console: console)
            case "mpd": try MPDCommand.run(rest, console: console)
            case "osc": try OSCCommand.run(rest, console: console)
            case "midi": try MIDICommand.run(rest, console: console)
            case "devices": try DevicesCommand.run(rest, console: console)
            case "record": try RecordCommand.run(rest, console: console)
            case "soak": try SoakCommand.run(rest, console: console)
            case "--help", "-h", "help":
                console.out(usage + "\n")
            case "--version":
                console.out("flywheel \(FlywheelVersion.string) (libgpiod \(LibraryVersions.gpiod))\n")
            default:
                throw ToolError.usage("Unknown command '\(command)'; run 'flywheel --help' for the commands")
            }
            return 0
        } catch {
            console.err(error.description + "\n")
            return error.status
        }
    }
}
