import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel connect [--socket PATH]`: standard input's lines to the daemon, the daemon's lines to
/// standard output (for a WebSocket gateway such as websocketd).
enum ConnectCommand {
    static let usage = """
        flywheel connect [--socket PATH]
            Both ways, for a WebSocket gateway such as websocketd: each line of standard input is a command
            to the daemon, each line from the daemon (answers and events) a JSON line on standard output,
            the answers in order however fast commands come. A line over 64 KiB is answered with the
            daemon's line-too-long error and not sent. At the end of standard input it waits for the
            answers still due (2 s at most after the last one came), then stops; also on SIGTERM or
            SIGINT. Reconnects as watch does (lines that come while the daemon is away are dropped, saying so).
            Example: websocketd --address=127.0.0.1 --port=8080 --staticdir=udev/web flywheel connect
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "connect")
        let path = try SocketOption.path(&args)
        _ = try args.positionals("no other arguments", count: 0...0)
        let session = try ConnectSession(path: path, log: { console.err($0 + "\n") })
        try session.run()
    }
}
