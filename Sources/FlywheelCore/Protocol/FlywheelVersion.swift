/// Flywheel's version.
public enum FlywheelVersion {
    /// The version string.
    public static let string = "0.1.0"
}
