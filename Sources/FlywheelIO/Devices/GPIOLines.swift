import CGpiodShim
import FlywheelCore
import Glibc

/// An encoder's GPIO lines (A, B and an optional push button) requested for both-edge events,
/// timestamped with CLOCK_MONOTONIC, through libgpiod 1.6 (v1 API: Debian 12, Raspberry Pi OS
/// bookworm) or 2.x (v2 API: Debian 13, current Raspberry Pi OS), whichever the build found
/// (Sources/CGpiodShim). Every libgpiod call Flywheel makes goes through this file and the shim.
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
    /// The event descriptors to poll (non-blocking): one per line, A, B and then the button (v1
    /// API), or one for all the lines (v2 API).
    public let fds: [Int32]
    /// Whether the kernel applied the pull-up bias (kernels before 5.5 cannot).
    public let pullUpApplied: Bool
    /// How many events the kernel queues for each descriptor before it drops some: 16 per line
    /// (v1 API), 1024 for the request (v2 API).
    public let bufferEvents: Int
    let chip: OpaquePointer
    let request: OpaquePointer
    let lineCount: Int
    let subject: String
    /// Where reads put the edges, kept from read to read.
    var buffer: [flywheel_gpiod_edge]
    var closed = false

    /// Opens `chip` (a name such as `gpiochip0`, a path, a number or a label) and requests `a`, `b`
    /// and `button` (offsets or line names) for both-edge events with a pull-up where supported.
    public convenience init(chip chipSpec: String, a: String, b: String, button: String?, consumer: String = "flywheel") throws(SystemError) {
        try self.init(chip: .named(chipSpec), a: a, b: b, button: button, consumer: consumer)
    }

    /// Opens the chip `selector` picks — the Raspberry Pi header's, found by its label among the
    /// chips in `directory`, or one named — and requests `a`, `b` and `button` (offsets or line
    /// names such as `GPIO17`) for both-edge events with a pull-up where supported. A named chip
    /// that does not exist while the header's does is an error that names the header's chip.
    public init(
        chip selector: GPIOChipSelector, a: String, b: String, button: String?, consumer: String = "flywheel", directory: String = "/dev"
    ) throws(SystemError) {
        let chipSpec: String
        switch selector {
        case .header: chipSpec = try Self.headerPath(in: directory)
        case .named(let spec): chipSpec = spec
        }
        let chip: OpaquePointer
        do throws(SystemError) {
            chip = try Syscall.gpiodPointer(chipSpec) { flywheel_gpiod_chip_open_lookup(chipSpec) }
        } catch {
            throw Self.hintingHeader(error, in: directory)
        }
        let name = String(cString: flywheel_gpiod_chip_name(chip))
        subject = "\(name) (\(chipSpec))"
        let specs = [a, b] + (button.map { [$0] } ?? [])
        let request: OpaquePointer
        var fds: [Int32] = []
        do throws(SystemError) {
            var offsets: [UInt32] = []
            for spec in specs {
                if let offset = UInt32(spec) {
                    offsets.append(offset)
                } else {
                    let found = try Syscall.gpiod("line '\(spec)' of \(name)") { flywheel_gpiod_chip_find_line(chip, spec) }
                    offsets.append(UInt32(found))
                }
            }
            let lines = specs.joined(separator: ",")
            request = try Syscall.gpiodPointer("lines \(lines) of \(name)") {
                flywheel_gpiod_request_edges(chip, offsets, offsets.count, consumer, true)
            }
            do throws(SystemError) {
                for index in 0..<flywheel_gpiod_request_num_fds(request) {
                    let fd = try Syscall.gpiod("lines \(lines) of \(name)") { flywheel_gpiod_request_fd(request, index) }
                    let flagsNow = try Syscall.call("fcntl", "lines \(lines) of \(name)") { fcntl(fd, F_GETFL) }
                    _ = try Syscall.call("fcntl", "lines \(lines) of \(name)") { fcntl(fd, F_SETFL, flagsNow | O_NONBLOCK) }
                    fds.append(fd)
                }
            } catch {
                flywheel_gpiod_request_release(request)
                throw error
            }
        } catch {
            flywheel_gpiod_chip_close(chip)
            throw error
        }
        self.chip = chip
        self.request = request
        self.lineCount = specs.count
        self.chipName = name
        self.chipLabel = String(cString: flywheel_gpiod_chip_label(chip))
        self.fds = fds
        self.pullUpApplied = flywheel_gpiod_request_pull_up(request)
        self.bufferEvents = flywheel_gpiod_request_buffer_events(request)
        self.buffer = [flywheel_gpiod_edge](repeating: flywheel_gpiod_edge(), count: bufferEvents)
    }

    deinit { close() }

    /// The lines' levels now: A and B, and the button's (high = released with a pull-up).
    public func levels() throws(SystemError) -> (quadrature: QuadratureLevels, button: Bool?) {
        var values: [Bool] = []
        for index in 0..<lineCount {
            let value = try Syscall.gpiod(subject) { flywheel_gpiod_request_get_value(request, index) }
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

    /// Reads every edge waiting on every line, merged in time order. `possiblyLost` is true when
    /// the kernel dropped events: a gap in a line's sequence numbers (v2 API), or a line's read that
    /// came back with the kernel's whole buffer (v1 API, which has no sequence numbers).
    public func readEdges() throws(SystemError) -> (edges: [GPIOEdge], possiblyLost: Bool) {
        var edges: [GPIOEdge] = []
        var possiblyLost = false
        // Each descriptor has its own queue: an edge on A can be queued while B is being read. Read
        // them all again while any has more, so the batch sorted below is complete (a few rounds at most).
        var round = 0
        var more = true
        while more {
            round += 1
            for index in fds.indices {
                while true {
                    let count = try Syscall.gpiodEdges(request, index, into: &buffer, lost: &possiblyLost, subject)
                    for edge in buffer.prefix(count) {
                        let which: GPIOEdge.Line = edge.line_index == 0 ? .a : edge.line_index == 1 ? .b : .button
                        edges.append(GPIOEdge(timeNanoseconds: Nanoseconds(edge.timestamp_ns), line: which, rising: edge.rising))
                    }
                    if count < buffer.count { break }
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
        flywheel_gpiod_request_release(request)
        flywheel_gpiod_chip_close(chip)
    }

    /// Whether line `offset` of `chip` is requested by some consumer now.
    public static func isRequested(chip: String, offset: UInt32) -> Bool {
        guard let handle = flywheel_gpiod_chip_open_lookup(chip) else { return false }
        defer { flywheel_gpiod_chip_close(handle) }
        return flywheel_gpiod_chip_line_is_used(handle, offset) == 1
    }

    /// The chip among `chips` that carries the Raspberry Pi's header, if any (by its label:
    /// ``GPIOChipSelector/headerLabels``).
    public static func header(among chips: [ChipInfo]) -> ChipInfo? {
        GPIOChipSelector.headerIndex(labels: chips.map(\.label)).map { chips[$0] }
    }

    /// The header chip's path among the chips in `directory`; ENOENT (the device manager waits
    /// for it to appear) when no chip there has a header's label.
    static func headerPath(in directory: String) throws(SystemError) -> String {
        guard let header = header(among: chips(in: directory)) else {
            throw SystemError(
                function: "gpiod_chip_open", subject: "the Raspberry Pi header's GPIO chip in \(directory)", errno: ENOENT,
                hint: "No chip there is labelled " + GPIOChipSelector.headerLabels.joined(separator: ", ")
                    + ": on another board, name its chip (`flywheel devices` lists them).")
        }
        return header.path
    }

    /// `error` from opening a named chip, with a hint naming the header's chip when the named one
    /// is absent and a Raspberry Pi header is there.
    static func hintingHeader(_ error: SystemError, in directory: String) -> SystemError {
        guard [ENOENT, ENODEV, ENXIO].contains(error.errno), let header = header(among: chips(in: directory)) else { return error }
        var hinted = error
        hinted.hint = "The Raspberry Pi header's chip is \(header.name) (\(header.label)) on this kernel: leave out gpio.chip, or set it to \"header\", "
            + "to have it whatever its number (kernel 6.6.47 renumbered the Pi 5's from gpiochip4 to gpiochip0)."
        return hinted
    }

    /// The GPIO chips under `directory` (default /dev) that can be opened.
    public static func chips(in directory: String = "/dev") -> [ChipInfo] {
        let names = (try? FileSystem.listDirectory(directory))?.filter { $0.hasPrefix("gpiochip") } ?? []
        return names.compactMap { name in
            let path = directory + "/" + name
            guard let chip = flywheel_gpiod_chip_open(path) else { return nil }
            defer { flywheel_gpiod_chip_close(chip) }
            return ChipInfo(
                path: path, name: String(cString: flywheel_gpiod_chip_name(chip)),
                label: String(cString: flywheel_gpiod_chip_label(chip)), lines: Int(flywheel_gpiod_chip_num_lines(chip)))
        }
    }
}
