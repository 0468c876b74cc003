import FlywheelDaemon
import FlywheelIO

/// `--socket PATH` of every client command: the option, else `$FLYWHEEL_SOCKET`, else where a
/// daemon listens by default (``SocketLocation/clientDefault()``).
enum SocketOption {
    /// The line each client command's usage ends with.
    static let usage = "--socket PATH: flywheeld's socket (default $FLYWHEEL_SOCKET, else where flywheeld listens by default)."

    /// Removes `--socket PATH` from `args` and returns the socket to use.
    static func path(_ args: inout Arguments) throws(ToolError) -> String {
        try args.option("socket") ?? SocketLocation.clientDefault()
    }

    /// A connection to the daemon at `path`, or an error saying how to find it.
    static func connect(_ path: String) throws(ToolError) -> StreamConnection {
        do { return try StreamConnection(connectingTo: path) } catch {
            // The errno alone: "cannot connect to PATH" would say the path twice.
            throw unreachable(path, error.reason ?? Errno.describe(error.errno))
        }
    }

    /// The sentence for a daemon that cannot be reached at `path`, `reason` the clause saying why.
    static func unreachable(_ path: String, _ reason: String) -> ToolError {
        ToolError(
            "cannot reach flywheeld at \(path): \(ReconnectBackoff.clause(reason)); is the daemon running? Start it (flywheeld), or give its socket with --socket PATH or \(SocketLocation.environmentVariable)")
    }
}
