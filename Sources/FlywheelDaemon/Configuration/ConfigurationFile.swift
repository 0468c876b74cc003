import FlywheelCore
import FlywheelIO

/// The configuration file flywheeld reads at start and on SIGHUP: a regular file of at most
/// ``limitBytes``; without `--config`, the default path may be absent (the defaults apply).
public struct ConfigurationFile: Sendable {
    /// The largest configuration read (1 MiB).
    public static let limitBytes = 1 << 20
    /// The default path.
    public static let defaultPath = "/etc/flywheel/flywheel.json5"

    /// The path.
    public let path: String
    /// Whether the path was given (`--config`): then it must exist.
    public let explicit: Bool

    /// The file at `path` (nil: the default path).
    public init(path: String?) {
        self.path = path ?? Self.defaultPath
        explicit = path != nil
    }

    /// Whether there is anything at the path.
    public var isPresent: Bool { FileSystem.exists(path) }

    /// Loads it: the defaults when the default path is absent; an error naming the file (and line)
    /// when it is not a regular file, too long, empty or wrong.
    public func load() throws -> FlywheelConfiguration {
        guard explicit || isPresent else { return FlywheelConfiguration() }
        let bytes = try FileSystem.readRegularFile(path, limitBytes: Self.limitBytes)
        return try FlywheelConfiguration.parse(bytes, file: path)
    }
}
