import CGpiod
import FlywheelCore
import Glibc

/// An encoder's GPIO lines (A, B and an optional push button) requested for both-edge events
/// through libgpiod 1.6 (the v1 character-device uAPI of Debian 12 and Raspberry Pi OS bookworm).
/// Every libgpiod call Flywheel makes is in this file.
public final class GPIOLines {
    /// A chip as `flywheel devices` lists it.
    public struct ChipInfo: Sendable, Hashable {
        public var path: String
        public var name: String
        public var label: String
        public var lines: Int
    }

    /// The chip's name (`gpiochip0`) and label (`pinctrl-bcm2711`).
    public let chipName: String
    public let chipLabel: String
    /// The lines' event descriptors (non-blocking), A, B and then the button if there is one.
    public let fds: [Int32]
    /// Whether the kernel applied the pull-up bias (kernels before 5.5 cannot).
    public let pullUpApplied: Bool
    let chip: OpaquePointer
    let lines: [OpaquePointer]
    let subject: String
    var closed = false

    /// The kernel keeps this many events per line; a read that returns as many may have lost some.
    public static let kernelBufferEvents = 16

    /// Opens `chip` (a name such as `gpiochip0`, a path, a number or a label) and requests `a`, `b`
    /// and `button` (offsets or line names) for both-edge events with a pull-up where supported.
    public init(chip chipSpec: String, a: String, b: String, button: String?, consumer: String = "flywheel") throws(SystemError) {
        let chip = try Syscall.pointer("gpiod_chip_open_lookup", chipSpec) { gpiod_chip_open_lookup(chipSpec) }
        let name = String(cString: gpiod_chip_name(chip))
        subject = "\(name) (\(chipSpec))"
        var lines: [OpaquePointer] = []
        var fds: [Int32] = []
        var pullUp = true
        do throws(SystemError) {
            for spec in [a, b] + (button.map { [$0] } ?? []) {
                let line: OpaquePointer
                if let offset = UInt32(spec) {
                    line = try Syscall.pointer("gpiod_chip_get_line", "line \(offset) of \(name)") { gpiod_chip_get_line(chip, offset) }
                } else {
                    line = try Syscall.pointer("gpiod_chip_find_line", "line '\(spec)' of \(name)") { gpiod_chip_find_line(chip, spec) }
                }
                let flags = pullUp ? Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP) : 0
                var rc = gpiod_line_request_both_edges_events_flags(line, consumer, flags)
                if rc < 0, pullUp, errno == EINVAL || errno == EOPNOTSUPP {
                    pullUp = false  // an older kernel without bias support: rely on external pull-ups
                    rc = gpiod_line_request_both_edges_events(line, consumer)
                }
                guard rc == 0 else { throw SystemError(function: "gpiod_line_request_both_edges_events", subject: "line \(spec) of \(name)", errno: errno) }
                lines.append(line)
                let fd = try Syscall.call("gpiod_line_event_get_fd", "line \(spec) of \(name)") { gpiod_line_event_get_fd(line) }
                let flagsNow = try Syscall.call("fcntl", "line \(spec) of \(name)") { fcntl(fd, F_GETFL) }
                _ = try Syscall.call("fcntl", "line \(spec) of \(name)") { fcntl(fd, F_SETFL, flagsNow | O_NONBLOCK) }
                fds.append(fd)
            }
        } catch {
            for line in lines { gpiod_line_release(line) }
            gpiod_chip_close(chip)
            throw error
        }
        self.chip = chip
        self.chipName = name
        self.chipLabel = String(cString: gpiod_chip_label(chip))
        self.lines = lines
        self.fds = fds
        self.pullUpApplied = pullUp
    }

    deinit { close() }

    /// The lines' levels now: A and B, and the button's (high = released with a pull-up).
    public func levels() throws(SystemError) -> (quadrature: QuadratureLevels, button: Bool?) {
        var values: [Bool] = []
        for line in lines {
            let value = try Syscall.call("gpiod_line_get_value", subject) { gpiod_line_get_value(line) }
            values.append(value != 0)
        }
        return (QuadratureLevels(a: values[0], b: values[1]), values.count > 2 ? values[2] : nil)
    }

    /// Whether any line has an event waiting to be read.
    public func hasPendingEvents() throws(SystemError) -> Bool {
        var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = try Syscall.call("poll", subject) { poll(&polls, nfds_t(polls.count), 0) }
        return ready > 0
    }

    /// Reads every edge waiting on every line, merged in time order. `possiblyLost` is true when a
    /// line's read came back with the kernel's whole buffer (events may have been dropped).
    public func readEdges() throws(SystemError) -> (edges: [GPIOEdge], possiblyLost: Bool) {
        var edges: [GPIOEdge] = []
        var possiblyLost = false
        var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: Self.kernelBufferEvents)
        // Each line has its own queue: an edge on A can be queued while B is being read. Read them
        // all again while any has more, so the batch sorted below is complete (a few rounds at most).
        var round = 0
        var more = true
        while more {
            round += 1
        for (index, line) in lines.enumerated() {
            let which: GPIOEdge.Line = index == 0 ? .a : index == 1 ? .b : .button
            while true {
                let count = gpiod_line_event_read_multiple(line, &buffer, UInt32(buffer.count))
                if count < 0 {
                    if errno == EAGAIN { break }
                    if errno == EINTR { continue }
                    throw SystemError(function: "gpiod_line_event_read_multiple", subject: subject, errno: errno)
                }
                for event in buffer.prefix(Int(count)) {
                    edges.append(GPIOEdge(
                        timeNanoseconds: Nanoseconds(event.ts.tv_sec) * 1_000_000_000 + Nanoseconds(event.ts.tv_nsec), line: which,
                        rising: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE)))
                }
                if count == Self.kernelBufferEvents { possiblyLost = true } else { break }
            }
        }
            more = round < 8 ? try hasPendingEvents() : false
        }
        edges.sort { $0.timeNanoseconds < $1.timeNanoseconds }  // stable: A before B at equal times
        return (edges, possiblyLost)
    }

    /// Releases the lines and closes the chip (once).
    public func close() {
        guard !closed else { return }
        closed = true
        for line in lines { gpiod_line_release(line) }
        gpiod_chip_close(chip)
    }

    /// Whether line `offset` of `chip` is requested by some consumer now.
    public static func isRequested(chip: String, offset: UInt32) -> Bool {
        guard let handle = gpiod_chip_open_lookup(chip) else { return false }
        defer { gpiod_chip_close(handle) }
        guard let line = gpiod_chip_get_line(handle, offset) else { return false }
        _ = gpiod_line_update(line)
        return gpiod_line_is_used(line)
    }

    /// The GPIO chips under `directory` (default /dev) that can be opened.
    public static func chips(in directory: String = "/dev") -> [ChipInfo] {
        let names = (try? FileSystem.listDirectory(directory))?.filter { $0.hasPrefix("gpiochip") } ?? []
        return names.compactMap { name in
            let path = directory + "/" + name
            guard let chip = gpiod_chip_open(path) else { return nil }
            defer { gpiod_chip_close(chip) }
            return ChipInfo(
                path: path, name: String(cString: gpiod_chip_name(chip)), label: String(cString: gpiod_chip_label(chip)),
                lines: Int(gpiod_chip_num_lines(chip)))
        }
    }
}
