import CEvdev
import CGpiodShim

/// Names and versions from the C libraries, through the same seam as every other C call.
public enum LibraryVersions {
    /// libgpiod's version string, e.g. "1.6.3" or "2.2.1".
    public static var gpiod: String { String(cString: flywheel_gpiod_version_string()) }

    /// The libgpiod API the build uses: 1 (libgpiod 1.6) or 2 (libgpiod 2.x).
    public static var gpiodAPI: Int { Int(flywheel_gpiod_api()) }

    /// libevdev's name for an event type and code, e.g. "EV_REL" / "REL_DIAL", or nil when unknown.
    public static func evdevNames(type: UInt16, code: UInt16) -> (type: String, code: String?)? {
        guard let typeName = libevdev_event_type_get_name(UInt32(type)) else { return nil }
        let codeName = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
        return (String(cString: typeName), codeName)
    }
}
