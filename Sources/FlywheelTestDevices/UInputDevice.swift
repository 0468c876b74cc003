import CEvdev
import CLinux
import FlywheelCore
import FlywheelIO
import Glibc

/// A virtual input device made through uinput (libevdev's uinput API): the simulator's real-kernel
/// output. The kernel treats it like hardware — the input core drops zero-valued relative events and
/// timestamps what is written — so a reader cannot tell it from the device it imitates.
public final class UInputDevice {
    /// The event node the kernel made (`/dev/input/eventN`).
    public let devnode: String
    let handle: OpaquePointer
    let template: OpaquePointer
    /// inotify on /dev/input for IN_OPEN, set up before the node exists.
    let openWatch: Int32
    let watchingDirectory: Bool
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
        // Watch the directory for opens before the node exists: a reader may take it at once.
        let watch = try Syscall.call("inotify_init1", "/dev/input") { inotify_init1(Int32(IN_CLOEXEC)) }
        let watchingDirectory = inotify_add_watch(watch, "/dev/input", UInt32(IN_OPEN)) >= 0
        var device: OpaquePointer?
        do {
            _ = try Syscall.evdev("libevdev_uinput_create_from_device", "/dev/uinput (\(description.name))") {
                libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &device)
            }
        } catch {
            libevdev_free(template)
            Glibc.close(watch)
            throw error
        }
        self.openWatch = watch
        self.watchingDirectory = watchingDirectory
        self.template = template
        self.handle = device!
        self.devnode = libevdev_uinput_get_devnode(device).map { String(cString: $0) } ?? ""
        // The first input device of all made /dev/input just now: watch the node itself.
        if !watchingDirectory { _ = inotify_add_watch(watch, devnode, UInt32(IN_OPEN)) }
    }

    deinit { destroy() }

    /// Writes one event (the kernel timestamps it now).
    public func write(_ event: InputEvent) throws(SystemError) {
        _ = try Syscall.evdev("libevdev_uinput_write_event", devnode) {
            libevdev_uinput_write_event(handle, UInt32(event.type), UInt32(event.code), event.value)
        }
    }

    /// What readers wrote to the device (`EV_MSC`/`MSC_PULSELED` for the PowerMate's LED, as the real
    /// one's driver receives it), waiting at most `timeoutMilliseconds` for the first event; each with
    /// the kernel's timestamp (CLOCK_MONOTONIC, microseconds), or the time it was read when the kernel
    /// gave none. Empty when nothing came in time.
    public func feedback(timeoutMilliseconds: Int32) throws(SystemError) -> [InputEvent] {
        let fd = libevdev_uinput_get_fd(handle)
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard try Syscall.call("poll", devnode, { Glibc.poll(&poll, 1, max(timeoutMilliseconds, 0)) }) > 0 else { return [] }
        var records = [input_event](repeating: input_event(), count: 16)
        let count = try Syscall.call("read", devnode) {
            records.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        }
        let now = MonotonicClock.now()
        return records.prefix(count / MemoryLayout<input_event>.size).map { record in
            let stamp = Nanoseconds(record.time.tv_sec) * 1_000_000_000 + Nanoseconds(record.time.tv_usec) * 1_000
            return InputEvent(timeNanoseconds: stamp > 0 ? stamp : now, type: record.type, code: record.code, value: record.value)
        }
    }

    /// Waits until some process opens the event node (a reader took the device), at most
    /// `timeoutMilliseconds`; returns whether one did. The directory's watch was set up before the
    /// node existed (see ``init(_:)``), so a reader that opened it at once is not missed.
    public func waitForReader(timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        let name = devnode.split(separator: "/").last.map(String.init) ?? devnode
        let deadline = MonotonicClock.now() + Nanoseconds(timeoutMilliseconds) * 1_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = Int32(max(0, (deadline - MonotonicClock.now()) / 1_000_000))
            var poll = pollfd(fd: openWatch, events: Int16(POLLIN), revents: 0)
            let ready = try Syscall.call("poll", devnode) { Glibc.poll(&poll, 1, left) }
            if ready == 0 { return false }
            let count = try Syscall.call("read", devnode) { buffer.withUnsafeMutableBytes { Glibc.read(openWatch, $0.baseAddress, $0.count) } }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len) }
                let opened = String(decoding: buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }, as: UTF8.self)
                // An event with no name is the watched directory itself being listed (a reader
                // rescanning), unless the watch is on the node itself.
                if opened == name || (length == 0 && !watchingDirectory) { return true }
                offset += header + length
            }
        }
    }

    /// Removes the device (a reader sees ENODEV, as on an unplug).
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        Glibc.close(openWatch)
        libevdev_uinput_destroy(handle)
        libevdev_free(template)
    }
}
