import CEvdev
import FlywheelCore
import Glibc

/// An evdev input device opened through libevdev. Every libevdev call that reads a device is in
/// this file (the uinput calls that make one are in UInputDevice.swift); both go through the
/// ``Syscall`` seam, and failures become ``SystemError``s naming the device and the function.
public final class EvdevDevice {
    /// What one read brought.
    public enum Reading: Sendable, Hashable {
        /// An event, in order.
        case event(InputEvent)
        /// The kernel dropped events (`SYN_DROPPED`); libevdev has resynchronised and these buttons
        /// are down now, these absolute axes at these values.
        case resynchronised(buttonsDown: Set<UInt16>, absoluteValues: [UInt16: Int32], timeNanoseconds: Nanoseconds)
    }

    /// The node it was opened from.
    public let path: String
    /// Its descriptor (non-blocking), for the event loop.
    public let fd: Int32
    /// What it says about itself.
    public let description: InputDeviceDescription
    /// Whether it was opened for writing too (LED feedback).
    public let writable: Bool
    let device: OpaquePointer
    var closed = false

    /// Opens `path` for reading (and writing when allowed), timestamps on CLOCK_MONOTONIC.
    public init(path: String) throws(SystemError) {
        var fd: Int32
        var writable = true
        do {
            fd = try Syscall.call("open", path) { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        } catch where error.errno == EACCES || error.errno == EROFS || error.errno == EPERM {
            writable = false
            fd = try Syscall.call("open", path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        }
        // Switch the kernel timestamps to CLOCK_MONOTONIC at once: switching flushes what the client
        // has queued (with a SYN_DROPPED), so the later it happens the more a busy device loses.
        // A node that is not evdev refuses it; libevdev says so below.
        var clock = CLOCK_MONOTONIC
        _ = ioctl(fd, Self.setClockRequest, &clock)
        var handle: OpaquePointer?
        do {
            _ = try Syscall.evdev("libevdev_new_from_fd", path) { libevdev_new_from_fd(fd, &handle) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard let handle else {
            Glibc.close(fd)
            throw SystemError(function: "libevdev_new_from_fd", subject: path, errno: ENOMEM)
        }
        // Kernel timestamps on the daemon's clock, not wall time (already set above; this checks it).
        if libevdev_set_clock_id(handle, CLOCK_MONOTONIC) < 0 {
            libevdev_free(handle)
            Glibc.close(fd)
            throw SystemError(function: "libevdev_set_clock_id", subject: path, errno: EINVAL)
        }
        self.path = path
        self.fd = fd
        self.writable = writable
        self.device = handle
        self.description = Self.describe(handle)
    }

    deinit { close() }

    /// EVIOCSCLOCKID, _IOW('E', 0xa0, int): the request Glibc's module does not export.
    static let setClockRequest = UInt(0x4004_45a0)

    static func describe(_ device: OpaquePointer) -> InputDeviceDescription {
        var codes: [UInt16: Set<UInt16>] = [:]
        var ranges: [UInt16: ClosedRange<Int32>] = [:]
        let limits: [(UInt16, UInt32)] = [(EventType.key, 0x300), (EventType.rel, 0x10), (EventType.abs, 0x40), (EventType.msc, 0x08)]
        for (type, limit) in limits where libevdev_has_event_type(device, UInt32(type)) != 0 {
            for code in 0..<limit where libevdev_has_event_code(device, UInt32(type), code) != 0 {
                codes[type, default: []].insert(UInt16(code))
                if type == EventType.abs, let info = libevdev_get_abs_info(device, code) {
                    let low = info.pointee.minimum, high = info.pointee.maximum
                    if low <= high { ranges[UInt16(code)] = low...high }
                }
            }
        }
        return InputDeviceDescription(
            name: libevdev_get_name(device).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)),
            codes: codes, absoluteRanges: ranges)
    }

    /// Takes the device exclusively (EVIOCGRAB): other readers, the console included, see nothing.
    public func grab() throws(SystemError) {
        _ = try Syscall.evdev("libevdev_grab", path) { libevdev_grab(device, LIBEVDEV_GRAB) }
    }

    /// Reads every event available now. Throws on ENODEV (unplugged) and other read errors.
    public func read() throws(SystemError) -> [Reading] {
        var out: [Reading] = []
        var event = input_event()
        while true {
            let status = try Syscall.evdev("libevdev_next_event", path) {
                let rc = libevdev_next_event(device, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event)
                return rc == -EAGAIN ? Int32.max : rc
            }
            if status == Int32.max { return out }
            out.append(.event(Self.inputEvent(event)))
            if status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // Drain libevdev's synchronisation, then report the state it arrived at.
                while true {
                    let rc = libevdev_next_event(device, LIBEVDEV_READ_FLAG_SYNC.rawValue, &event)
                    if rc == -EAGAIN || rc < 0 && rc != -EINTR { break }
                }
                out.append(.resynchronised(buttonsDown: buttonsDown(), absoluteValues: absoluteValues(), timeNanoseconds: Self.inputEvent(event).timeNanoseconds))
            }
        }
    }

    /// The buttons down now, in libevdev's state.
    public func buttonsDown() -> Set<UInt16> {
        Set(description.keys.filter { libevdev_get_event_value(device, UInt32(EventType.key), UInt32($0)) != 0 })
    }

    /// The absolute axes' values now, in libevdev's state.
    public func absoluteValues() -> [UInt16: Int32] {
        var values: [UInt16: Int32] = [:]
        for code in description.absoluteRanges.keys { values[code] = libevdev_get_event_value(device, UInt32(EventType.abs), UInt32(code)) }
        return values
    }

    /// Writes an event to the device (LED feedback: EV_MSC/MSC_PULSELED on the PowerMate).
    public func write(type: UInt16, code: UInt16, value: Int32) throws(SystemError) {
        var event = input_event()
        event.type = type
        event.code = code
        event.value = value
        _ = try Syscall.call("write", path) { Glibc.write(fd, &event, MemoryLayout<input_event>.size) }
    }

    /// Releases libevdev and closes the descriptor (once).
    public func close() {
        guard !closed else { return }
        closed = true
        libevdev_free(device)
        Glibc.close(fd)
    }

    static func inputEvent(_ event: input_event) -> InputEvent {
        InputEvent(
            timeNanoseconds: Nanoseconds(event.time.tv_sec) * 1_000_000_000 + Nanoseconds(event.time.tv_usec) * 1000,
            type: event.type, code: event.code, value: event.value)
    }
}
