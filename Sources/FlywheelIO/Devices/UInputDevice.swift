import CEvdev
import CLinux
import FlywheelCore
import Glibc

/// A virtual input device made through uinput (libevdev's uinput API): the simulator's real-kernel
/// output. The kernel treats it like hardware — the input core drops zero-valued relative events and
/// timestamps what is written — so a reader cannot tell it from the device it imitates.
public final class UInputDevice {
    /// The event node the kernel made (`/dev/input/eventN`).
    public let devnode: String
    let handle: OpaquePointer
    let template: OpaquePointer
    var destroyed = false

    /// Creates a device with `description`'s name, ids, codes and axis ranges.
    public init(_ description: InputDeviceDescription) throws(SystemError) {
        guard let template = libevdev_new() else { throw SystemError(function: "libevdev_new", subject: description.name, errno: ENOMEM) }
        libevdev_set_name(template, description.name)
        libevdev_set_id_bustype(template, Int32(description.bus))
        libevdev_set_id_vendor(template, Int32(description.vendor))
        libevdev_set_id_product(template, Int32(description.product))
        libevdev_set_id_version(template, Int32(description.version))
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) {
            libevdev_enable_event_type(template, UInt32(type))
            for code in codes.sorted() {
                if type == EventType.abs {
                    let range = description.absoluteRanges[code] ?? 0...1
                    var info = input_absinfo()
                    info.minimum = range.lowerBound
                    info.maximum = range.upperBound
                    libevdev_enable_event_code(template, UInt32(type), UInt32(code), &info)
                } else {
                    libevdev_enable_event_code(template, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var device: OpaquePointer?
        do {
            _ = try Syscall.evdev("libevdev_uinput_create_from_device", "/dev/uinput (\(description.name))") {
                libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &device)
            }
        } catch {
            libevdev_free(template)
            throw error
        }
        self.template = template
        self.handle = device!
        self.devnode = libevdev_uinput_get_devnode(device).map { String(cString: $0) } ?? ""
    }

    deinit { destroy() }

    /// Writes one event (the kernel timestamps it now).
    public func write(_ event: InputEvent) throws(SystemError) {
        _ = try Syscall.evdev("libevdev_uinput_write_event", devnode) {
            libevdev_uinput_write_event(handle, UInt32(event.type), UInt32(event.code), event.value)
        }
    }

    /// Waits until some process opens the event node (a reader took the device), at most
    /// `timeoutMilliseconds`; returns whether one did.
    public func waitForReader(timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        let watch = try Syscall.call("inotify_init1", devnode) { inotify_init1(Int32(IN_CLOEXEC)) }
        defer { Glibc.close(watch) }
        _ = try Syscall.call("inotify_add_watch", devnode) { inotify_add_watch(watch, devnode, UInt32(IN_OPEN)) }
        var poll = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
        let ready = try Syscall.call("poll", devnode) { Glibc.poll(&poll, 1, timeoutMilliseconds) }
        return ready > 0
    }

    /// Removes the device (a reader sees ENODEV, as on an unplug).
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        libevdev_uinput_destroy(handle)
        libevdev_free(template)
    }
}
