import FlywheelCore
import FlywheelIO

extension Daemon {
    /// Refuses `configuration` (at start, or on SIGHUP before it replaces the running one) with
    /// every problem ``ConfigurationCheck`` finds, one sentence a line naming file, line and key:
    /// the checks `--check-config` makes.
    static func check(_ configuration: FlywheelConfiguration, options: DaemonOptions, socketPassed: Bool) throws(ToolError) {
        let socket: ConfigurationCheck.SocketChoice =
            socketPassed ? .passed : .init(commandLine: options.socketPath, configuration: configuration, fallback: defaultSocketPath())
        let profiles = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: options.hardware, scenarioPath: nil))
        let problems = ConfigurationCheck.problems(in: configuration, socket: socket, profiles: profiles)
        guard problems.isEmpty else { throw ToolError(problems.map(\.description).joined(separator: "\n")) }
    }

    /// What the command line and the file say about the socket that socket activation overrides
    /// (systemd made the socket, and its unit decides the path, mode and group), one sentence each
    /// naming the option, or the file, line and key, and where to set it instead.
    static func unusedUnderActivation(_ configuration: FlywheelConfiguration, options: DaemonOptions) -> [String] {
        var sentences: [String] = []
        if let path = options.socketPath {
            sentences.append("--socket \(path) is not used: systemd passed the socket, and flywheeld.socket's ListenStream= decides its path.")
        }
        if let source = configuration.source {
            for (key, setting) in [("socket.path", "ListenStream="), ("socket.mode", "SocketMode="), ("socket.group", "SocketGroup=")]
            where source.keyLines[key] != nil {
                sentences.append(
                    "\(source.file) line \(source.line(of: key)): key '\(key)' is not used: systemd passed the socket, and flywheeld.socket's \(setting) decides it (systemctl edit flywheeld.socket).")
            }
        }
        return sentences
    }
}
