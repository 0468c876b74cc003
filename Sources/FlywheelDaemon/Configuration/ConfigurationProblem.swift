import FlywheelCore

/// One thing in a configuration that starting, a reload or `--check-config` refuses, as one
/// sentence naming where the value was set: the file's line and key, the command-line option,
/// or the default.
public enum ConfigurationProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// A value in the file: `FILE line N: key 'K' problem.`
    case file(FileLineError)
    /// A value from the command line: `--socket PATH: problem`.
    case option(name: String, value: String, problem: String)
    /// A default, when neither the file nor the command line gave the value.
    case fallback(what: String, value: String, problem: String)

    /// A problem with `key` of `configuration`'s file (its line from the parse).
    static func file(_ configuration: FlywheelConfiguration, key: String, _ problem: String) -> ConfigurationProblem {
        let source = configuration.source ?? ConfigurationSource(file: "the configuration", keyLines: [:])
        return .file(source.error(key: key, problem))
    }

    /// The file's line it is about (0: not a line of the file).
    var line: Int {
        if case .file(let error) = self { return error.line }
        return 0
    }

    /// One sentence.
    public var description: String {
        switch self {
        case .file(let error): return error.description
        case .option(let name, let value, let problem): return "\(name) \(value): \(problem)"
        case .fallback(let what, let value, let problem): return "\(what) \(value): \(problem)"
        }
    }
}
