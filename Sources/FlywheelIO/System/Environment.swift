import Glibc

/// The process environment, read through the seam.
public enum Environment {
    /// The value of `name`, or nil when unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
