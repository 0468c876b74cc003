import FlywheelCore

/// What the command line set, which outranks the configuration file at start and across reloads.
public struct CommandLineSettings: Sendable, Hashable {
    /// `--max-clients`, if given.
    public var maxClients: Int?
    /// `--frames`, if given.
    public var framesPerSecond: Double?

    /// Settings from the command line.
    public init(maxClients: Int? = nil, framesPerSecond: Double? = nil) {
        self.maxClients = maxClients
        self.framesPerSecond = framesPerSecond
    }

    /// The clients served at once under `configuration`.
    public func clientLimit(under configuration: FlywheelConfiguration) -> Int { maxClients ?? configuration.maxClients }

    /// The frame rate under `configuration`.
    public func framesPerSecond(under configuration: FlywheelConfiguration) -> Double { framesPerSecond ?? configuration.framesPerSecond }
}
