import FlywheelCore
import FlywheelDaemon
import FlywheelIO

/// `flywheel volumio` and `flywheel moode`: `[--socket PATH] --host HOST[:PORT] [--mute-button BUTTON]`.
enum HTTPVolumeCommand {
    static let volumioUsage = """
        flywheel volumio [--socket PATH] --host HOST[:PORT] [--mute-button BUTTON]
            Keep Volumio's volume in step with flywheeld's volume control through Volumio's REST API
            (/api/v1/commands/?cmd=volume&volume=N, one request at a time, the latest volume winning), so
            Volumio's page shows it; /api/v1/getState is read when flywheeld's state comes and after each
            command, and a volume set in Volumio comes back to flywheeld within its cap. A tap of BUTTON
            (BTN_0…BTN_9 or a key code) mutes and unmutes. PORT is 80 unless given. Retries with backoff
            while Volumio is unreachable; exits on SIGTERM.
            Example: flywheel volumio --host volumio.local --mute-button BTN_0
            \(SocketOption.usage)
        """

    static let moodeUsage = """
        flywheel moode [--socket PATH] --host HOST[:PORT] [--mute-button BUTTON]
            Keep moOde's volume in step with flywheeld's volume control through moOde's command interface
            (/command/?cmd=set_volume N, which runs moOde's vol.sh as its own rotary encoder does; one request
            at a time, the latest volume winning), so moOde's page shows it; get_volume is read when
            flywheeld's state comes, each answer carries moOde's volume, and a volume set in moOde comes
            back to flywheeld within its cap. A tap of BUTTON (BTN_0…BTN_9 or a key code) toggles moOde's
            mute. PORT is 80 unless given. Retries with backoff while moOde is unreachable; exits on SIGTERM.
            Example: flywheel moode --host moode.local
            \(SocketOption.usage)
        """

    static func volumio(_ arguments: [String], console: Console) throws(ToolError) {
        try run(.volumio, arguments, console: console)
    }

    static func moode(_ arguments: [String], console: Console) throws(ToolError) {
        try run(.moode, arguments, console: console)
    }

    static func run(_ platform: HTTPVolumePlatform, _ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: platform.rawValue)
        let socket = try SocketOption.path(&args)
        guard let host = try args.option("host"), !host.isEmpty, !host.contains("/") else {
            throw .usage("'\(platform.rawValue)' needs --host HOST[:PORT] (where \(platform.name)'s web server listens)", help: true)
        }
        let muteButton = try muteButton(&args)
        _ = try args.positionals("no other arguments", count: 0...0)
        try HTTPVolumeBridge(platform: platform, flywheel: socket, host: host, muteButton: muteButton, log: { console.err($0 + "\n") }).run()
    }

    /// `--mute-button BUTTON` (BTN_0…BTN_9 or a key code) of the volume bridges: its key code.
    static func muteButton(_ args: inout Arguments) throws(ToolError) -> Int? {
        guard let text = try args.option("mute-button") else { return nil }
        guard let code = KeyCode.button(named: text) else {
            throw .usage("--mute-button takes a button as BTN_0…BTN_9 or a key code such as 256, not '\(text)'")
        }
        return Int(code)
    }
}
