import FlywheelDaemon
import FlywheelIO

/// `flywheel mpd [--socket PATH] [--mpd PATH|HOST:PORT] [--button BUTTON=ACTION ...] [--pause-button CODE]`
enum MPDCommand {
    static let usage = """
        flywheel mpd [--socket PATH] [--mpd PATH|HOST:PORT] [--button BUTTON=ACTION ...] [--pause-button CODE]
            Drive MPD from flywheeld: keep the scrub control on the current song, seek when a scrub commits,
            set MPD's volume from the volume control (one setvol at a time, the latest winning) and read
            MPD's volume back; a tap of BUTTON (BTN_0…BTN_9 or a key code) does ACTION: play-pause, next,
            previous or stop (--button may be repeated; --pause-button CODE is --button CODE=play-pause).
            MPD defaults to $MPD_HOST or localhost:6600. Reconnects to either side; exits on SIGTERM.
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "mpd")
        let socket = try SocketOption.path(&args)
        let mpd = try args.option("mpd") ?? Environment.value("MPD_HOST").map { $0.contains("/") || $0.contains(":") ? $0 : $0 + ":6600" } ?? "localhost:6600"
        var buttons: [Int: MPDTransport] = [:]
        if let buttonText = try args.option("pause-button") {
            guard let code = Int(buttonText), (0...0x2ff).contains(code) else {
                throw .usage("--pause-button takes an evdev key code such as 256, not '\(buttonText)'")
            }
            buttons[code] = .playPause
        }
        for text in try args.options("button") {
            guard let (code, action) = MPDTransport.binding(text) else {
                let actions = MPDTransport.allCases.map(\.rawValue).joined(separator: ", ")
                throw .usage("--button takes BUTTON=ACTION with BUTTON as BTN_0…BTN_9 or a key code and ACTION one of \(actions), not '\(text)'")
            }
            buttons[code] = action
        }
        _ = try args.positionals("no files", count: 0...0)
        let bridge = MPDBridge(flywheel: socket, mpd: mpd, buttons: buttons, log: { console.err($0 + "\n") })
        do { try bridge.run() } catch { throw ToolError(error) }
    }
}
