/// Splits UTF-8 text into lines (LF or CRLF) with 1-based line numbers, without copying the
/// whole input into `String`s up front.
struct LineScanner: Sequence {
    let bytes: [UInt8]

    struct Line {
        let number: Int
        let bytes: ArraySlice<UInt8>
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    func makeIterator() -> Iterator { Iterator(bytes: bytes) }

    struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        var index = 0
        var number = 0

        mutating func next() -> Line? {
            guard index < bytes.count else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            var end = index
            if index < bytes.count { index += 1 }
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            number += 1
            return Line(number: number, bytes: bytes[start..<end])
        }
    }
}

extension ArraySlice where Element == UInt8 {
    /// Splits on runs of spaces and tabs.
    func fields() -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var i = startIndex
        while i < endIndex {
            while i < endIndex, self[i] == 0x20 || self[i] == 0x09 { i += 1 }
            let start = i
            while i < endIndex, self[i] != 0x20, self[i] != 0x09 { i += 1 }
            if i > start { result.append(self[start..<i]) }
        }
        return result
    }

    /// The slice as text, for error messages (shortened when long).
    var quoted: String {
        let text = String(decoding: prefix(40), as: UTF8.self)
        return "'" + text + (count > 40 ? "…" : "") + "'"
    }

    /// Parses an unsigned decimal integer, or nil (no sign, no overflow).
    func unsignedDecimal() -> Int64? {
        guard !isEmpty, count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in self {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// Parses `seconds.fraction` into nanoseconds, with at most `maxFractionDigits` after the point
    /// (exactly that many when `exactFractionDigits`).
    func decimalSecondsAsNanoseconds(maxFractionDigits: Int, exactFractionDigits: Bool) -> Int64? {
        guard let dot = firstIndex(of: 0x2E) else { return nil }
        let whole = self[startIndex..<dot]
        let fraction = self[(dot + 1)..<endIndex]
        guard let seconds = whole.unsignedDecimal(), seconds < 1 << 33,
            !fraction.isEmpty, fraction.count <= maxFractionDigits,
            !exactFractionDigits || fraction.count == maxFractionDigits,
            var sub = fraction.unsignedDecimal()
        else { return nil }
        for _ in fraction.count..<9 { sub *= 10 }
        return seconds * 1_000_000_000 + sub
    }

    func hasPrefix(_ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        guard count >= p.count else { return false }
        return zip(self, p).allSatisfy { $0 == $1 }
    }
}
