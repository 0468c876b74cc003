import CEvdev
import CGpiod

/// Names and versions from the C libraries, through the same seam as every other C call.
public enum LibraryVersions {
    /// libgpiod's version string, e.g. "1.6.3".
    public static var gpiod: String { String(cString: gpiod_version_string()) }

    /// libevdev's name for an event type and code, e.g. "EV_REL" / "REL_DIAL", or nil when unknown.
    public static func evdevNames(type: UInt16, code: UInt16) -> (type: String, code: String?)? {
        guard let typeName = libevdev_event_type_get_name(UInt32(type)) else { return nil }
        let codeName = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
        return (String(cString: typeName), codeName)
    }
}
