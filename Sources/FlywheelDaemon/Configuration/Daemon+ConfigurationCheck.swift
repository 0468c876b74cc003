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
}
