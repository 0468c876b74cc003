import FlywheelCore
import FlywheelIO

/// What a configuration needs from this system beyond the file's own rules, checked alike by
/// `--check-config`, at start and on SIGHUP (before anything is made or replaced): the socket's
/// group exists, the socket can be made where starting would make it, every device names a
/// profile that can be read. Each problem names the file, the line and the key (or the option).
public enum ConfigurationCheck {
    /// Where starting makes the socket, and what chose the path (for the problem's wording).
    public enum SocketChoice: Sendable, Hashable {
        /// `--socket PATH`, which outranks the file.
        case commandLine(String)
        /// The file's `socket.path`.
        case configured(String)
        /// Neither gave one: the default.
        case fallback(String)
        /// systemd passes the socket (socket activation): no path is made.
        case passed

        /// The path starting would use: the command line's, else the file's, else `fallback`.
        public init(commandLine: String?, configuration: FlywheelConfiguration, fallback: String) {
            if let commandLine {
                self = .commandLine(commandLine)
            } else if let configured = configuration.socketPath {
                self = .configured(configured)
            } else {
                self = .fallback(fallback)
            }
        }
    }

    /// Problems with `configuration` on this system. `groupExists`, `profileProblem` (nil: the
    /// profile can be read) and `profileReport` (how a readable profile reports) are parameters so
    /// tests need not touch /etc/group or hardware/.
    public static func problems(
        in configuration: FlywheelConfiguration, socket: SocketChoice,
        groupExists: (String) -> Bool = ConfigurationCheck.groupExists,
        profileProblem: (String) -> String?, profileReport: (String) -> ReportKind? = { _ in nil }
    ) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        if let group = configuration.socketGroup, !groupExists(group) {
            problems.append(.file(configuration, key: "socket.group", "names the group '\(group)', which does not exist on this system"))
        }
        if let problem = socketProblem(socket, in: configuration) { problems.append(problem) }
        for (index, device) in configuration.devices.enumerated() {
            if let problem = profileProblem(device.profile) {
                problems.append(.file(configuration, key: "devices[\(index)].profile", problem))
            } else if device.gpio != nil, let report = profileReport(device.profile), report != .gpio {
                // GPIO lines are decoded with a GPIO profile's settings: another kind's would be ignored.
                problems.append(.file(configuration, key: "devices[\(index)].gpio",
                    "gives GPIO lines, but the profile '\(device.profile)' is not a GPIO encoder (it reports \(report.rawValue)); name a GPIO profile such as \"ec11\", or give 'path' for an evdev device"))
            }
        }
        return problems
    }

    /// Whether the socket can be made where `socket` says.
    static func socketProblem(_ socket: SocketChoice, in configuration: FlywheelConfiguration) -> ConfigurationProblem? {
        switch socket {
        case .passed:
            return nil
        case .commandLine(let path):
            return SocketPathCheck.problem(at: path).map { .option(name: "--socket", value: path, problem: $0) }
        case .configured(let path):
            return SocketPathCheck.problem(at: path).map { .file(configuration, key: "socket.path", "names a socket flywheeld cannot make: \($0)") }
        case .fallback(let path):
            return SocketPathCheck.problem(at: path).map { .fallback(what: "the default socket path", value: path, problem: $0) }
        }
    }

    /// Whether the group `name` exists on this system.
    public static func groupExists(_ name: String) -> Bool { SystemGroups.id(named: name) != nil }

    /// The problems starting would meet with `configuration`, profiles searched in `profiles`.
    /// Each profile id is looked up once, however many devices name it.
    public static func problems(in configuration: FlywheelConfiguration, socket: SocketChoice, profiles: ProfileLibrary) -> [ConfigurationProblem] {
        let ids = Set(configuration.devices.map(\.profile))
        let known = ids.isEmpty ? [] : profiles.all().map(\.id)
        var lookups: [String: (problem: String?, report: ReportKind?)] = [:]
        for id in ids {
            let problem = profiles.problem(naming: id, known: known)
            lookups[id] = (problem, problem == nil ? (try? profiles.profile(id))?.report : nil)
        }
        return problems(in: configuration, socket: socket, profileProblem: { lookups[$0]?.problem ?? nil }, profileReport: { lookups[$0]?.report ?? nil })
    }

    /// The `--check-config` report for `file`: the sentence to print, whether it passed, and the
    /// warnings (``ConfigurationWarnings``: devices not there now) that do not fail it.
    /// `commandLineSocket` is `--socket`; `defaultSocketPath` the path used when neither gives one.
    public static func report(
        for file: ConfigurationFile, profiles: ProfileLibrary, commandLineSocket: String? = nil, defaultSocketPath: String,
        warnings: (FlywheelConfiguration) -> [ConfigurationProblem] = { ConfigurationWarnings.warnings(in: $0) }
    ) -> (text: String, valid: Bool, warnings: [String]) {
        let configuration: FlywheelConfiguration  // the defaults when the default path is absent
        do { configuration = try file.load() } catch { return ("\(error)\n", false, []) }
        let socket = SocketChoice(commandLine: commandLineSocket, configuration: configuration, fallback: defaultSocketPath)
        let found = problems(in: configuration, socket: socket, profiles: profiles)
        let warned = warnings(configuration).map(\.description)
        guard found.isEmpty else { return (found.map(\.description).joined(separator: "\n") + "\n", false, warned) }
        guard file.explicit || file.isPresent else {
            return ("\(file.path) does not exist; flywheeld would run with the defaults.\n", true, warned)
        }
        return ("\(file.path): the configuration is valid\(warned.isEmpty ? "" : " (with the warnings above)").\n", true, warned)
    }
}
