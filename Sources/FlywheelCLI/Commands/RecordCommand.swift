import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import FlywheelFormats
import Glibc

/// `flywheel record /dev/input/eventN` (evemu text) and `flywheel record --gpio CHIP:A,B` (an edge log).
enum RecordCommand {
    static let usage = """
        flywheel record DEVICE [--seconds S] [--count N] [--name TEXT]
        flywheel record --gpio [CHIP:]A,B [--seconds S] [--count N] [--name TEXT]
            Record a device until Ctrl-C (or S seconds, or N events): an evdev node as evemu text with its
            device header, or an encoder's GPIO lines (offsets or names) as a .edges log. Times start at 0
            at the first event. `flywheel replay` and `flywheeld --replay` play the result through the
            same decoding the live device gets.
            Example: flywheel record --gpio GPIO17,GPIO27 --seconds 10 > knob.edges
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "record")
        let gpio = try args.option("gpio")
        let seconds = try FeelOptions.number(&args, "seconds", default: 0)!
        let countText = try args.option("count")
        let name = try args.option("name")
        guard seconds >= 0, seconds <= 86_400 else { throw .usage("--seconds takes 0 (until Ctrl-C) to 86400") }
        guard let limit = Int(countText ?? "0"), limit >= 0 else { throw .usage("--count takes a whole number of events") }
        let paths = try args.positionals(gpio == nil ? "one DEVICE to record" : "no DEVICE with --gpio", count: gpio == nil ? 1...1 : 0...0)

        let loop: EventLoop
        let signals: SignalSource
        do {
            signals = try SignalSource([SIGINT, SIGTERM])
            loop = try EventLoop()
            try loop.register(signals.fd, interest: .readable) { _ in
                _ = signals.drain()
                loop.stop()
            }
        } catch {
            throw ToolError(error)
        }
        var recorded = 0
        var edgesWritten = 0
        var start: Nanoseconds?
        var failure: ToolError?
        func relative(_ time: Nanoseconds) -> Nanoseconds {
            if start == nil { start = time }
            return time - start!
        }
        func counted() {
            recorded += 1
            if limit > 0, recorded >= limit { loop.stop() }
        }

        var close: () -> Void = {}
        defer {
            // The handlers go first (they capture the loop), while the descriptors they watch are open.
            loop.removeAllHandlers()
            close()
        }
        let endAt: Nanoseconds? = seconds > 0 ? MonotonicClock.now() + Nanoseconds(seconds * 1e9) : nil
        do {
            if let gpio {
                let spec = try parseGPIO(gpio)
                let lines: GPIOLines
                do { lines = try GPIOLines(chip: spec.chip, a: spec.a, b: spec.b, button: nil, consumer: "flywheel-record") } catch {
                    // A hint of its own (the Raspberry Pi header's chip) already says where to look.
                    throw ToolError(error.description + (error.hint == nil ? " `flywheel devices` lists the GPIO chips there are and their lines" : ""))
                }
                close = lines.close
                let levels = try lines.levels().quadrature
                let notes = "recorded from \(lines.chipName) (\(lines.chipLabel)) lines A=\(spec.a) B=\(spec.b)" + (lines.pullUpApplied ? ", pull-ups on" : "")
                console.out(EdgeLog(name: name ?? "GPIO encoder on \(lines.chipName)", notes: notes, trace: QuadratureTrace(initial: levels, edges: [])).text())
                for fd in lines.fds {
                    try loop.register(fd, interest: .readable) { _ in
                        do {
                            let (edges, lost) = try lines.readEdges()
                            var text = ""
                            for edge in edges where edge.line != .button {
                                text += EdgeLog.line(for: QuadratureEdge(timeNanoseconds: relative(edge.timeNanoseconds), line: edge.line == .a ? .a : .b, level: edge.rising))
                                edgesWritten += 1
                                counted()
                            }
                            // The levels read back after each read, as the backend reads them: a loss
                            // mark when the kernel's buffer came back full, else a read-back when no
                            // event is pending.
                            if let last = edges.last {
                                let now = try lines.levels().quadrature
                                let readAt = MonotonicClock.now()
                                if lost {
                                    text += EdgeLog.line(for: EdgeLog.Mark(.loss, timeNanoseconds: relative(last.timeNanoseconds), levels: now, edgeIndex: edgesWritten))
                                } else if try !lines.hasPendingEvents() {
                                    text += EdgeLog.line(for: EdgeLog.Mark(.readBack, timeNanoseconds: relative(readAt), levels: now, edgeIndex: edgesWritten))
                                }
                            }
                            console.out(text)
                        } catch {
                            failure = ToolError(error)
                            loop.stop()
                        }
                    }
                }
            } else {
                let device = try EvdevDevice(path: paths[0])
                close = device.close
                var header = EvemuRecording(describing: device.description)
                header.recordedAbsoluteValues = device.absoluteValues()  // where a replay starts its axes
                if let name { header.name = name }
                console.out(header.text() + "# recorded from \(paths[0])\n")
                try loop.register(device.fd, interest: .readable) { _ in
                    do {
                        var text = ""
                        for reading in try device.read() {
                            switch reading {
                            case .event(let event):
                                var copy = event
                                copy.timeNanoseconds = relative(event.timeNanoseconds)
                                text += EvemuRecording.line(for: copy)
                                if event.type == EventType.syn, event.code == SynCode.report { counted() }
                            case .resynchronised:
                                text += "# libevdev resynchronised after SYN_DROPPED\n"
                            }
                        }
                        console.out(text)
                    } catch {
                        failure = ToolError("\(error) Recording stopped.")
                        loop.stop()
                    }
                }
            }
            loop.arm(at: endAt)
            loop.onTimer { loop.stop() }
            try loop.run()
        } catch let error as SystemError {
            throw ToolError(error)
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError(error)
        }
        if let failure { throw failure }
    }

    /// `--gpio [CHIP:]A,B`: the chip (the Raspberry Pi header when left out or `header`) and the
    /// A and B lines (offsets or names such as GPIO17).
    static func parseGPIO(_ text: String) throws(ToolError) -> (chip: GPIOChipSelector, a: String, b: String) {
        let usage = ToolError.usage("--gpio takes [CHIP:]A,B such as 17,27 (the Raspberry Pi header) or gpiochip0:17,27, not '\(text)'")
        let colon = text.lastIndex(of: ":")
        let first = colon.map { text.index(after: $0) } ?? text.startIndex
        let lines = text[first...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let chip = colon.map { String(text[..<$0]) }
        guard chip?.isEmpty != true, lines.count == 2, !lines[0].isEmpty, !lines[1].isEmpty else { throw usage }
        return (GPIOChipSelector(configured: chip), lines[0], lines[1])
    }
}
