import CEvdev
import Glibc

/// A keyboard made through uinput (libevdev's uinput API, through the ``Syscall`` seam): its keys
/// pressed and released as a real keyboard's are, each report followed by `SYN_REPORT`. Closing it
/// removes the device (and with it any key still down).
public final class VirtualKeyboard {
    /// The event node the kernel made (`/dev/input/eventN`), when it says.
    public let devnode: String
    let handle: OpaquePointer
    let template: OpaquePointer
    var destroyed = false

    /// Makes a keyboard called `name` that has `keys` (`KEY_*` and `BTN_*` codes).
    public init(name: String, keys: Set<UInt16>) throws(SystemError) {
        guard let template = libevdev_new() else { throw SystemError(function: "libevdev_new", subject: name, errno: ENOMEM) }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, 0x06)  // BUS_VIRTUAL
        libevdev_enable_event_type(template, UInt32(EV_KEY))
        for key in keys.sorted() { libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(key), nil) }
        var device: OpaquePointer?
        do {
            _ = try Syscall.evdev("libevdev_uinput_create_from_device", "/dev/uinput (\(name))") {
                libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &device)
            }
        } catch {
            libevdev_free(template)
            throw error
        }
        self.template = template
        handle = device!
        devnode = libevdev_uinput_get_devnode(device).map { String(cString: $0) } ?? "/dev/uinput"
    }

    deinit { destroy() }

    /// `key` down (`down`) or up, then `SYN_REPORT`.
    public func set(_ key: UInt16, down: Bool) throws(SystemError) {
        _ = try Syscall.evdev("libevdev_uinput_write_event", devnode) { libevdev_uinput_write_event(handle, UInt32(EV_KEY), UInt32(key), down ? 1 : 0) }
        _ = try Syscall.evdev("libevdev_uinput_write_event", devnode) { libevdev_uinput_write_event(handle, UInt32(EV_SYN), UInt32(SYN_REPORT), 0) }
    }

    /// The code of the key called `name` (`KEY_VOLUMEUP`, `BTN_LEFT`): linux/input-event-codes.h's
    /// names, as libevdev knows them; nil for any other name.
    public static func keyCode(named name: String) -> UInt16? {
        guard name.hasPrefix("KEY_") || name.hasPrefix("BTN_") else { return nil }
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
        return code >= 0 ? UInt16(code) : nil
    }

    /// Removes the device.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        libevdev_uinput_destroy(handle)
        libevdev_free(template)
    }
}
