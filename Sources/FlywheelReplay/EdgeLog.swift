import FlywheelCore

/// The Flywheel GPIO edge log (`.edges`): a quadrature trace as text.
///
/// ```
/// # flywheel-edges 1
/// # name: a bouncy half turn
/// # notes: recorded on gpiochip0 lines 17 and 27
/// S: A=1 B=1
/// E: 0.012000000 A 0
/// E: 0.012000250 A 1
/// ```
/// The first line is the format marker. Optional `# name:` / `# notes:` lines and other `#`
/// comments follow. `S:` gives the levels before the first edge; each `E:` line is one level
/// change with its time as seconds and exactly nine digits of nanoseconds. In a recording of the
/// kernel's events (`flywheel record --gpio`) each `E:` line is one event: a toggle of the line,
/// labelled with the level the kernel read when it handled it, and an `L:` line marks where the
/// kernel's event buffer came back full, with the levels read back then. Lines with the same
/// timestamp are simultaneous; timestamps never go backwards.
public struct EdgeLog: Hashable, Sendable {
    /// A point where edges may have been lost (`L: <time> A=<0|1> B=<0|1>`: the kernel's event
    /// buffer came back full), with the levels read back from the lines then.
    public struct Loss: Hashable, Sendable {
        public var timeNanoseconds: Nanoseconds
        public var levels: QuadratureLevels

        public init(timeNanoseconds: Nanoseconds, levels: QuadratureLevels) {
            self.timeNanoseconds = timeNanoseconds
            self.levels = levels
        }
    }

    /// The `# name:` header, if any.
    public var name: String?
    /// The `# notes:` header lines, joined with newlines.
    public var notes: String?
    /// The signal.
    public var trace: QuadratureTrace
    /// Where edges may have been lost, in time order (recordings of the kernel's events only).
    public var losses: [Loss]

    /// Creates a log.
    public init(name: String? = nil, notes: String? = nil, trace: QuadratureTrace, losses: [Loss] = []) {
        self.name = name
        self.notes = notes
        self.trace = trace
        self.losses = losses
    }

    /// The marker every edge log starts with.
    public static let marker = "# flywheel-edges 1"

    /// Parses an edge log; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(ReplayError) -> EdgeLog {
        var name: String?
        var notes: [String] = []
        var initial: QuadratureLevels?
        var edges: [QuadratureEdge] = []
        var losses: [Loss] = []
        var lastTime: Int64 = .min
        for line in LineScanner(bytes: bytes) {
            func fail(_ problem: String) -> ReplayError {
                ReplayError(file: file, line: line.number, problem: problem)
            }
            if line.number == 1 {
                guard line.text == marker else {
                    throw fail("expected the first line to be '\(marker)' but found \(line.bytes.quoted)")
                }
                continue
            }
            let fields = line.bytes.fields()
            guard let first = fields.first else { continue }
            if first.first == 0x23 {  // '#'
                let text = line.text.drop(while: { $0 == "#" || $0 == " " })
                if text.hasPrefix("name:") {
                    name = String(text.dropFirst(5).drop(while: { $0 == " " }))
                } else if text.hasPrefix("notes:") {
                    notes.append(String(text.dropFirst(6).drop(while: { $0 == " " })))
                }
                continue
            }
            if first.hasPrefix("S:") {
                guard initial == nil else { throw fail("expected one start line but found a second 'S:' line") }
                guard edges.isEmpty else { throw fail("expected the 'S:' line before the first 'E:' line") }
                guard fields.count == 3, let a = level(fields[1], "A="), let b = level(fields[2], "B=") else {
                    throw fail("expected 'S: A=<0|1> B=<0|1>' but found \(line.bytes.quoted)")
                }
                initial = QuadratureLevels(a: a, b: b)
            } else if first.hasPrefix("E:") {
                guard initial != nil else { throw fail("expected an 'S: A=<0|1> B=<0|1>' line before the first edge") }
                guard fields.count == 4 else {
                    throw fail("expected 'E: <seconds>.<9 digits> <A|B> <0|1>' but found \(line.bytes.quoted)")
                }
                guard let time = fields[1].decimalSecondsAsNanoseconds(maxFractionDigits: 9, exactFractionDigits: true)
                else {
                    throw fail("expected a time as <seconds>.<nanoseconds, 9 digits> but found \(fields[1].quoted)")
                }
                guard time >= lastTime else {
                    throw fail("expected times in order but \(fields[1].quoted) is earlier than the line before")
                }
                let lineName = fields[2]
                let which: QuadratureLine
                if lineName.elementsEqual("A".utf8) {
                    which = .a
                } else if lineName.elementsEqual("B".utf8) {
                    which = .b
                } else {
                    throw fail("expected the line name A or B but found \(lineName.quoted)")
                }
                guard let value = bit(fields[3]) else {
                    throw fail("expected the level 0 or 1 but found \(fields[3].quoted)")
                }
                lastTime = time
                edges.append(QuadratureEdge(timeNanoseconds: time, line: which, level: value))
            } else if first.elementsEqual("L:".utf8) {
                guard initial != nil else { throw fail("expected an 'S: A=<0|1> B=<0|1>' line before a loss") }
                guard fields.count == 4, let time = fields[1].decimalSecondsAsNanoseconds(maxFractionDigits: 9, exactFractionDigits: true),
                    let a = level(fields[2], "A="), let b = level(fields[3], "B=")
                else {
                    throw fail("expected 'L: <seconds>.<9 digits> A=<0|1> B=<0|1>' but found \(line.bytes.quoted)")
                }
                guard time >= lastTime else {
                    throw fail("expected times in order but \(fields[1].quoted) is earlier than the line before")
                }
                lastTime = time
                losses.append(Loss(timeNanoseconds: time, levels: QuadratureLevels(a: a, b: b)))
            } else {
                throw fail("expected an 'S:', 'E:', 'L:' or '#' line but found \(line.bytes.quoted)")
            }
        }
        guard let initial else {
            if bytes.isEmpty { throw ReplayError(file: file, line: 0, problem: "expected '\(marker)' but the file is empty") }
            throw ReplayError(file: file, line: 0, problem: "expected an 'S: A=<0|1> B=<0|1>' start line but found none")
        }
        return EdgeLog(
            name: name, notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
            trace: QuadratureTrace(initial: initial, edges: edges), losses: losses)
    }

    /// The log as text, in the format ``parse(_:file:)`` reads.
    public func text() -> String {
        var out = EdgeLog.marker + "\n"
        if let name { out += "# name: \(name)\n" }
        if let notes {
            // Split on the newline byte: "\r\n" is one Character and would hide a line break from split(separator: "\n").
            for line in notes.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
                out += "# notes: \(String(decoding: line, as: UTF8.self))\n"
            }
        }
        out += "S: A=\(trace.initial.a ? 1 : 0) B=\(trace.initial.b ? 1 : 0)\n"
        out.reserveCapacity(out.utf8.count + trace.edges.count * 24)
        var lossIndex = 0
        for edge in trace.edges {
            while lossIndex < losses.count, losses[lossIndex].timeNanoseconds <= edge.timeNanoseconds {
                out += Self.line(for: losses[lossIndex])
                lossIndex += 1
            }
            out += Self.line(for: edge)
        }
        for loss in losses[lossIndex...] { out += Self.line(for: loss) }
        return out
    }

    /// One loss's `L:` line, with its newline.
    public static func line(for loss: Loss) -> String {
        "L: \(loss.timeNanoseconds.secondsText) A=\(loss.levels.a ? 1 : 0) B=\(loss.levels.b ? 1 : 0)\n"
    }

    /// One edge's `E:` line, with its newline (`flywheel record --gpio` streams these).
    public static func line(for edge: QuadratureEdge) -> String {
        "E: \(edge.timeNanoseconds.secondsText) \(edge.line.rawValue) \(edge.level ? 1 : 0)\n"
    }

    private static func level(_ field: ArraySlice<UInt8>, _ prefix: String) -> Bool? {
        guard field.count == prefix.utf8.count + 1, field.hasPrefix(prefix) else { return nil }
        return bit(field.suffix(1))
    }

    private static func bit(_ field: ArraySlice<UInt8>) -> Bool? {
        guard field.count == 1 else { return nil }
        switch field.first {
        case 0x30: return false
        case 0x31: return true
        default: return nil
        }
    }
}
