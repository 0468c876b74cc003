import FlywheelCore

extension VCD {
    /// The declarations before `$enddefinitions`.
    struct Header {
        struct Variable {
            var identifier: [UInt8]
            var name: String
            var width: Int
            var line: Int
        }

        var variables: [Variable] = []
        /// Nanoseconds per timestamp unit, as a fraction.
        var scaleNumerator: Int64 = 1
        var scaleDenominator: Int64 = 1
        var bodyStart = 0
        var bodyLine = 1

        func nanoseconds(_ raw: Int64) -> Int64? {
            let (product, overflow) = raw.multipliedReportingOverflow(by: scaleNumerator)
            return overflow ? nil : product / scaleDenominator
        }

        static func parse(_ bytes: [UInt8], file: String) throws(FileLineError) -> Header {
            var header = Header()
            var index = 0
            var line = 1
            func nextToken() -> (ArraySlice<UInt8>, Int)? {
                while index < bytes.count, bytes[index] <= 0x20 {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                guard index < bytes.count else { return nil }
                let start = index
                while index < bytes.count, bytes[index] > 0x20 { index += 1 }
                return (bytes[start..<index], line)
            }
            func section(_ keyword: ArraySlice<UInt8>, at startLine: Int) throws(FileLineError) -> [ArraySlice<UInt8>] {
                var tokens: [ArraySlice<UInt8>] = []
                while let (token, _) = nextToken() {
                    if token.elementsEqual("$end".utf8) { return tokens }
                    tokens.append(token)
                }
                throw FileLineError(
                    file: file, line: startLine,
                    problem: "expected '$end' to close \(keyword.quoted) but the file ended")
            }
            while let (token, tokenLine) = nextToken() {
                guard token.first == 0x24 else {
                    throw FileLineError(
                        file: file, line: tokenLine,
                        problem: "expected a '$' declaration before '$enddefinitions' but found \(token.quoted)")
                }
                if token.elementsEqual("$enddefinitions".utf8) {
                    _ = try section(token, at: tokenLine)
                    header.bodyStart = index
                    header.bodyLine = line
                    return header
                }
                let body = try section(token, at: tokenLine)
                if token.elementsEqual("$var".utf8) {
                    // $var <type> <width> <identifier> <reference...> $end
                    guard body.count >= 4, let width = body[1].unsignedDecimal() else {
                        throw FileLineError(
                            file: file, line: tokenLine,
                            problem: "expected '$var <type> <width> <identifier> <name> $end'")
                    }
                    let name = body[3...].map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
                    header.variables.append(
                        Variable(identifier: Array(body[2]), name: name, width: Int(width), line: tokenLine))
                } else if token.elementsEqual("$timescale".utf8) {
                    let text = body.map { String(decoding: $0, as: UTF8.self) }.joined()
                    guard let scale = timescale(text) else {
                        throw FileLineError(
                            file: file, line: tokenLine,
                            problem: "expected a timescale such as '1 us' (1, 10 or 100 of s, ms, us, ns, ps, fs) but found '\(text)'")
                    }
                    (header.scaleNumerator, header.scaleDenominator) = scale
                }
            }
            throw FileLineError(file: file, line: 0, problem: "expected '$enddefinitions $end' but the file ended before it")
        }

        /// "1us", "10 ns", "100ps" → nanoseconds per unit as numerator/denominator.
        static func timescale(_ text: String) -> (Int64, Int64)? {
            let digits = text.prefix(while: { $0.isNumber })
            let unit = text.dropFirst(digits.count)
            guard let magnitude = Int64(digits), [1, 10, 100].contains(magnitude) else { return nil }
            switch unit {
            case "s": return (magnitude * 1_000_000_000, 1)
            case "ms": return (magnitude * 1_000_000, 1)
            case "us": return (magnitude * 1_000, 1)
            case "ns": return (magnitude, 1)
            case "ps": return (magnitude, 1_000)
            case "fs": return (magnitude, 1_000_000)
            default: return nil
            }
        }
    }
}
