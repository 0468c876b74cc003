import FlywheelDaemon
import FlywheelIO

/// `flywheel mpd [--socket PATH] [--mpd PATH|HOST:PORT] [--pause-button CODE]`
enum MPDCommand {
    static let usage = """
        flywheel mpd [--socket PATH] [--mpd PATH|HOST:PORT] [--pause-button CODE]
            Drive MPD from flywheeld: keep the scrub control on the current song, seek when a scrub commits,
            toggle pause on a tap of the button CODE (e.g. 256 for BTN_0). MPD defaults to $MPD_HOST or
            localhost:6600. Reconnects to either side; exits on SIGTERM.
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "mpd")
        let socket = try args.option("socket") ?? WatchCommand.defaultSocket()
        let mpd = try args.option("mpd") ?? Environment.value("MPD_HOST").map { $0.contains("/") || $0.contains(":") ? $0 : $0 + ":6600" } ?? "localhost:6600"
        let buttonText = try args.option("pause-button")
        _ = try args.positionals("no files", count: 0...0)
        var button: Int?
        if let buttonText {
            guard let code = Int(buttonText), (0...0x2ff).contains(code) else {
                throw .usage("--pause-button takes an evdev key code such as 256, not '\(buttonText)'")
            }
            button = code
        }
        let bridge = MPDBridge(flywheel: socket, mpd: mpd, pauseButton: button, log: { console.err($0 + "\n") })
        do { try bridge.run() } catch { throw ToolError(error) }
    }
}
