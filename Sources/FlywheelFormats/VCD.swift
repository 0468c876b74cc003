import FlywheelCore

/// Reads a value change dump (VCD), as sigrok/PulseView and most logic analysers export it,
/// and extracts one quadrature pair by channel name.
public enum VCD {
    /// The channels a VCD file declares, in order.
    public static func channels(in bytes: [UInt8], file: String) throws(FileLineError) -> [String] {
        try Header.parse(bytes, file: file).variables.map(\.name)
    }

    /// Reads the A and B channels named `a` and `b` as a quadrature trace with times in nanoseconds.
    ///
    /// The levels at the first timestamp that sets both channels are the trace's initial levels;
    /// changes that share a timestamp stay simultaneous (same `timeNanoseconds`). An `x` or `z`
    /// value on A or B is an error: a decoder must not guess a level.
    public static func trace(_ bytes: [UInt8], a: String, b: String, file: String) throws(FileLineError) -> QuadratureTrace {
        let header = try Header.parse(bytes, file: file)
        func identifier(_ name: String) throws(FileLineError) -> [UInt8] {
            guard let variable = header.variables.first(where: { $0.name == name }) else {
                let names = header.variables.map { "'\($0.name)'" }.joined(separator: ", ")
                throw FileLineError(
                    file: file, line: 0, problem: "expected a channel named '\(name)'; the file has \(names.isEmpty ? "none" : names)")
            }
            guard variable.width == 1 else {
                throw FileLineError(
                    file: file, line: variable.line,
                    problem: "expected channel '\(name)' to be 1 bit wide but it is \(variable.width) bits")
            }
            return variable.identifier
        }
        let idA = try identifier(a)
        let idB = try identifier(b)

        var levelA: Bool?
        var levelB: Bool?
        var initial: QuadratureLevels?
        var current: QuadratureLevels?
        var edges: [QuadratureEdge] = []
        var time: Int64 = 0
        var lastTime: Int64 = -1
        var index = header.bodyStart
        var line = header.bodyLine
        let count = bytes.count
        var skippingSection = false

        while index < count {
            // Skip whitespace, counting lines.
            let byte = bytes[index]
            if byte == 0x0A { line += 1; index += 1; continue }
            if byte == 0x20 || byte == 0x09 || byte == 0x0D { index += 1; continue }
            let start = index
            while index < count, bytes[index] > 0x20 { index += 1 }
            let token = bytes[start..<index]
            func fail(_ problem: String) -> FileLineError { FileLineError(file: file, line: line, problem: problem) }
            guard !token.isEmpty else {
                throw fail("expected text but found the control byte 0x\(String(bytes[index], radix: 16)) (this is not a VCD text file)")
            }

            if skippingSection {
                if token.elementsEqual("$end".utf8) { skippingSection = false }
                continue
            }
            switch token.first! {
            case 0x23:  // '#'
                guard let raw = token.dropFirst().unsignedDecimal() else {
                    throw fail("expected a timestamp '#<integer>' but found \(token.quoted)")
                }
                guard let scaled = header.nanoseconds(raw) else {
                    throw fail("timestamp \(token.quoted) is too large")
                }
                guard scaled >= lastTime else {
                    throw fail("expected timestamps in order but \(token.quoted) goes back in time")
                }
                time = scaled
                lastTime = scaled
            case 0x30, 0x31, 0x78, 0x58, 0x7A, 0x5A:  // 0 1 x X z Z: scalar change, id follows without space
                let id = token.dropFirst()
                guard !id.isEmpty else { throw fail("expected an identifier after the value in \(token.quoted)") }
                let isA = id.elementsEqual(idA), isB = id.elementsEqual(idB)
                guard isA || isB else { continue }
                guard token.first! == 0x30 || token.first! == 0x31 else {
                    throw fail("expected channel '\(isA ? a : b)' to be 0 or 1 but it is \(token.quoted) (unknown level)")
                }
                let value = token.first! == 0x31
                let which: QuadratureLine = isA ? .a : .b
                if let levels = current {
                    if levels.level(of: which) != value {
                        edges.append(QuadratureEdge(timeNanoseconds: time, line: which, level: value))
                        current = levels.setting(which, to: value)
                    }
                } else {
                    if isA { levelA = value } else { levelB = value }
                    if let levelA, let levelB {
                        initial = QuadratureLevels(a: levelA, b: levelB)
                        current = initial
                    }
                }
            case 0x62, 0x42, 0x72, 0x52:  // b/B/r/R: vector or real; its identifier is the next token
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                let idStart = index
                while index < count, bytes[index] > 0x20 { index += 1 }
                let id = bytes[idStart..<index]
                if id.elementsEqual(idA) || id.elementsEqual(idB) {
                    throw fail("expected a scalar value for a quadrature channel but found the vector \(token.quoted)")
                }
            case 0x24:  // '$'
                if token.elementsEqual("$comment".utf8) { skippingSection = true }
                // $dumpvars, $dumpall, $dumpon, $dumpoff and their $end carry plain changes: nothing to do.
            default:
                throw fail("expected a timestamp or a value change but found \(token.quoted)")
            }
        }
        guard let initial else {
            throw FileLineError(file: file, line: 0, problem: "expected values for both '\(a)' and '\(b)' but the dump never sets them")
        }
        return QuadratureTrace(initial: initial, edges: edges)
    }
}
