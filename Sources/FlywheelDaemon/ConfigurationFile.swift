import FlywheelCore
import FlywheelIO

/// The daemon's configuration file: read at start and on SIGHUP.
public struct ConfigurationFile: Sendable {
    /// The path read.
    public let path: String
    /// Whether the user named it (a named file must exist; the default one may be absent).
    public let named: Bool

    /// The file the options name.
    public init(options: DaemonOptions) {
        path = options.configFile
        named = options.configPath != nil
    }

    /// A file the user named (it must exist).
    public init(path: String) {
        self.path = path
        named = true
    }

    /// Whether there is a file to read (the default path may be absent: the defaults apply).
    public var exists: Bool { named || FileSystem.exists(path) }

    /// Reads and checks the configuration; an absent default file means the defaults.
    public func load() throws(ToolError) -> FlywheelConfiguration {
        guard exists else { return FlywheelConfiguration() }
        do {
            let bytes = try FileSystem.readFile(path)
            return try FlywheelConfiguration.parse(bytes, file: path)
        } catch let error as SystemError {
            throw ToolError(error)
        } catch {
            throw ToolError(error)
        }
    }
}
