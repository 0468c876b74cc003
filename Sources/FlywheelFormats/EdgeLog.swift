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
/// change with its time as seconds and exactly nine digits of nanoseconds, in the order the edges
/// were delivered (a recording's times can go back a little where one line's events were read
/// after another's: the order is kept, not re-sorted). In a recording of the
/// kernel's events (`flywheel record --gpio`) each `E:` line is one event: a toggle of the line,
/// labelled with the level the kernel read when it handled it (which lags while contacts bounce);
/// an `R:` line gives the levels read back from the lines at a quiet moment, and an `L:` line marks
/// where the kernel's event buffer came back full, with the levels read back then. Lines with the same
/// timestamp are simultaneous; the marks' own times never go backwards.
public struct EdgeLog: Hashable, Sendable {
    /// The lines' levels read back by the GPIO backend at a moment between events: `R:` at a quiet
    /// moment (the decoder takes them as the truth, correcting an edge the interrupt merged away),
    /// `L:` where the kernel's event buffer came back full (edges may have been lost: a gap).
    public struct Mark: Hashable, Sendable {
        /// What the read-back means.
        public enum Kind: String, Sendable, Hashable {
            case loss = "L:"
            case readBack = "R:"
        }

        public var kind: Kind
        public var timeNanoseconds: Nanoseconds
        public var levels: QuadratureLevels
        /// How many edges came before it in the log: it applies between those and the next.
        public var edgeIndex: Int

        public init(_ kind: Kind, timeNanoseconds: Nanoseconds, levels: QuadratureLevels, edgeIndex: Int) {
            self.kind = kind
            self.timeNanoseconds = timeNanoseconds
            self.levels = levels
            self.edgeIndex = edgeIndex
        }
    }

    /// The `# name:` header, if any.
    public var name: String?
    /// The `# notes:` header lines, joined with newlines.
    public var notes: String?
    /// The signal.
    public var trace: QuadratureTrace
    /// Levels read back, and where edges may have been lost, in time order (recordings of the
    /// kernel's events only).
    public var marks: [Mark]

    /// Creates a log.
    public init(name: String? = nil, notes: String? = nil, trace: QuadratureTrace, marks: [Mark] = []) {
        self.name = name
        self.notes = notes
        self.trace = trace
        self.marks = marks
    }

    /// The marker every edge log starts with.
    public static let marker = "# flywheel-edges 1"

    /// Parses an edge log; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(FileLineError) -> EdgeLog {
        var name: String?
        var notes: [String] = []
        var initial: QuadratureLevels?
        var edges: [QuadratureEdge] = []
        var marks: [Mark] = []
        var lastMarkTime: Int64 = .min
        for line in LineScanner(bytes: bytes) {
            func fail(_ problem: String) -> FileLineError {
                FileLineError(file: file, line: line.number, problem: problem)
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
                edges.append(QuadratureEdge(timeNanoseconds: time, line: which, level: value))
            } else if let kind = Mark.Kind(rawValue: String(decoding: first, as: UTF8.self)) {
                guard initial != nil else { throw fail("expected an 'S: A=<0|1> B=<0|1>' line before '\(kind.rawValue)'") }
                guard fields.count == 4, let time = fields[1].decimalSecondsAsNanoseconds(maxFractionDigits: 9, exactFractionDigits: true),
                    let a = level(fields[2], "A="), let b = level(fields[3], "B=")
                else {
                    throw fail("expected '\(kind.rawValue) <seconds>.<9 digits> A=<0|1> B=<0|1>' but found \(line.bytes.quoted)")
                }
                guard time >= lastMarkTime else {
                    throw fail("expected times in order but \(fields[1].quoted) is earlier than the mark before")
                }
                lastMarkTime = time
                marks.append(Mark(kind, timeNanoseconds: time, levels: QuadratureLevels(a: a, b: b), edgeIndex: edges.count))
            } else {
                throw fail("expected an 'S:', 'E:', 'R:', 'L:' or '#' line but found \(line.bytes.quoted)")
            }
        }
        guard let initial else {
            if bytes.isEmpty { throw FileLineError(file: file, line: 0, problem: "expected '\(marker)' but the file is empty") }
            throw FileLineError(file: file, line: 0, problem: "expected an 'S: A=<0|1> B=<0|1>' start line but found none")
        }
        return EdgeLog(
            name: name, notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
            trace: QuadratureTrace(initial: initial, edges: edges), marks: marks)
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
        var markIndex = 0
        for (index, edge) in trace.edges.enumerated() {
            while markIndex < marks.count, marks[markIndex].edgeIndex <= index {
                out += Self.line(for: marks[markIndex])
                markIndex += 1
            }
            out += Self.line(for: edge)
        }
        for mark in marks[markIndex...] { out += Self.line(for: mark) }
        return out
    }

    /// One mark's `R:` or `L:` line, with its newline.
    public static func line(for mark: Mark) -> String {
        "\(mark.kind.rawValue) \(mark.timeNanoseconds.secondsText) A=\(mark.levels.a ? 1 : 0) B=\(mark.levels.b ? 1 : 0)\n"
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
