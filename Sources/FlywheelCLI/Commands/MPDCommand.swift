import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// `flywheel mpd [--socket PATH] [--mpd PATH|HOST:PORT] [--button BUTTON=ACTION ...] [--pause-button BUTTON]`
enum MPDCommand {
    static let usage = """
        flywheel mpd [--socket PATH] [--mpd PATH|HOST:PORT] [--button BUTTON=ACTION ...] [--pause-button BUTTON]
            Drive MPD from flywheeld: keep the scrub control on the current song, seek when a scrub commits,
            set MPD's volume from the volume control (one setvol at a time, the latest winning) and read
            MPD's volume back; a tap of BUTTON (BTN_0…BTN_9 or a key code) does ACTION: play-pause, next,
            previous, stop, mute (volume 0, and back on the next tap), shuffle or repeat (MPD's random and
            repeat, on and off) (--button may be repeated; --pause-button BUTTON is --button BUTTON=play-pause).
            MPD defaults to $MPD_HOST (PASSWORD@HOST sends MPD's password first) and $MPD_PORT, else
            localhost:6600. Resynchronises flywheeld from MPD whenever either side reconnects; keeps MPD's
            volume within flywheeld's volume cap. Reconnects to either side; exits on SIGTERM.
            Example: flywheel mpd --mpd /run/mpd/socket --button BTN_0=play-pause --button BTN_1=next
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "mpd")
        let socket = try SocketOption.path(&args)
        let mpd = MPDAddress(try args.option("mpd") ?? Environment.value("MPD_HOST"), port: Environment.value("MPD_PORT"))
        let buttons = try Self.buttons(&args)
        _ = try args.positionals("no other arguments", count: 0...0)
        let bridge = MPDBridge(flywheel: socket, mpd: mpd, buttons: buttons, log: { console.err($0 + "\n") })
        try bridge.run()
    }

    /// The buttons' jobs from `--pause-button BUTTON` and `--button BUTTON=ACTION` (BUTTON as
    /// BTN_0…BTN_9 or a key code, in both).
    static func buttons(_ args: inout Arguments) throws(ToolError) -> [Int: MPDTransport] {
        var buttons: [Int: MPDTransport] = [:]
        if let buttonText = try args.option("pause-button") {
            guard let code = KeyCode.button(named: buttonText) else {
                throw .usage("--pause-button takes a button as BTN_0…BTN_9 or a key code such as 256, not '\(buttonText)'")
            }
            buttons[Int(code)] = .playPause
        }
        for text in try args.options("button") {
            guard let (code, action) = MPDTransport.binding(text) else {
                let actions = MPDTransport.allCases.map(\.rawValue).joined(separator: ", ")
                throw .usage("--button takes BUTTON=ACTION with BUTTON as BTN_0…BTN_9 or a key code and ACTION one of \(actions), not '\(text)'")
            }
            buttons[code] = action
        }
        return buttons
    }
}
