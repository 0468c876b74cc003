import FlywheelCore

/// A replay file (VCD, `.edges`, evemu) could not be read.
public typealias ReplayError = FileLineError
