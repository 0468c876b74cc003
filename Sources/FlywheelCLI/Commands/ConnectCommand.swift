import FlywheelDaemon
import Glibc

/// `flywheel connect [--socket PATH]`: standard input's lines to the daemon, the daemon's lines to
/// standard output (for a WebSocket gateway such as websocketd).
enum ConnectCommand {
    static let usage = """
        flywheel connect [--socket PATH]
            Both ways, for a WebSocket gateway such as websocketd: each line of standard input is a command
            to the daemon, each line from the daemon (answers and events) a JSON line on standard output.
            Reconnects as watch does; stops at the end of standard input, on SIGTERM or SIGINT.
            Example: websocketd --address=127.0.0.1 --port=8080 --staticdir=udev/web flywheel connect
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "connect")
        let path = try SocketOption.path(&args)
        _ = try args.positionals("no other arguments", count: 0...0)
        let session = try DaemonSession(
            path: path, name: "flywheel connect", request: nil, input: LineInput(fd: STDIN_FILENO, name: "standard input"),
            deliver: { console.out($0 + "\n") }, log: { console.err($0 + "\n") })
        try session.run()
    }
}
