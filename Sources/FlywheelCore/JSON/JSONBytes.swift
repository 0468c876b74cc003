/// Compact JSON written straight into bytes: what every outgoing message is built with, so
/// building one costs one growing buffer and no intermediate strings.
extension JSONValue {
    /// Appends compact JSON to `out`: the one encoder, for messages and for text alike.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONValue.appendDecimal(value, into: &out)
        case .double(let value): JSONValue.appendDouble(value, into: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): JSONValue.quote(text, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.encode(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.quote(pair.0, into: &out)
                out.append(UInt8(ascii: ":"))
                pair.1.encode(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, every
    /// other byte of its UTF-8 as it is.
    static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are appended whole (the usual text, a class, a key,
        // a phase, is one run); each byte to escape is found eight bytes at a time.
        let done: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var start = 0
            while start < bytes.count {
                let special = firstToEscape(bytes, from: start)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<special]))
                guard special < bytes.count else { break }
                escape(bytes[special], into: &out)
                start = special + 1
            }
            return true
        }
        if done == nil {
            for byte in text.utf8 { escape(byte, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `byte` escaped if it must be (a quote, a backslash, a control character), else as it is.
    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
        case ..<0x20:
            out.append(contentsOf: "\\u00".utf8)
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0xF))
        default: out.append(byte)
        }
    }

    /// Whether any byte of `bytes` is a quote, a backslash or a control character.
    static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstToEscape(bytes, from: 0) < bytes.count
    }

    /// Where the first quote, backslash or control character at or after `from` is
    /// (`bytes.count` if none): eight bytes at a time, a byte below 0x20, or equal to 0x22 or
    /// 0x5C, setting its top bit in the word's test.
    static func firstToEscape(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & tops != 0 }
        var index = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let control = (word &- ones &* 0x20) & ~word & tops != 0
                if control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) { break }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index += 1
        }
        return index
    }

    /// Appends `value` as ``format(_:)`` writes it (`null` when not finite), without a String for
    /// the usual value of a message, one of at most six decimals (a frame's, a scrub's).
    static func appendDouble(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else { return out.append(contentsOf: "null".utf8) }
        let magnitude = abs(value)
        if value != value.rounded(), magnitude >= 1e-3, magnitude < 1e8 {
            let micro = (magnitude * 1e6).rounded()
            if micro / 1e6 == magnitude {
                // The double nearest a number of six decimals or fewer, where doubles are closer
                // together than 1e-6: those decimals, trailing zeros dropped, are the shortest
                // text that reads back as it, which is what `format` (Swift's description) writes.
                let micros = UInt64(micro)
                if value < 0 { out.append(UInt8(ascii: "-")) }
                appendDecimal(micros / 1_000_000, into: &out)
                out.append(UInt8(ascii: "."))
                appendFraction(micros % 1_000_000, from: 100_000, trimmed: true, into: &out)
                return
            }
        }
        out.append(contentsOf: format(value).utf8)
    }

    /// Appends the digits of `fraction` (below ten times `divisor`, a power of ten) from the one
    /// `divisor` counts, leading zeros included: all of them, or (`trimmed`) up to the last non-zero one.
    static func appendFraction(_ fraction: UInt64, from divisor: UInt64, trimmed: Bool, into out: inout [UInt8]) {
        var fraction = fraction, divisor = divisor
        while divisor > 0, !(trimmed && fraction == 0) {
            out.append(UInt8(truncatingIfNeeded: 0x30 + fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(value.magnitude), into: &out)
    }
}

extension Int64 {
    /// Appends ``secondsText`` (nanoseconds as exact decimal seconds, nine digits after the point).
    package func appendSecondsText(into out: inout [UInt8]) {
        if self < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = UInt64(self.magnitude)
        JSONValue.appendDecimal(magnitude / 1_000_000_000, into: &out)
        out.append(UInt8(ascii: "."))
        JSONValue.appendFraction(magnitude % 1_000_000_000, from: 100_000_000, trimmed: false, into: &out)
    }
}
