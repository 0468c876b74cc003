
/// Parsers for the small value forms shared by profiles and scenarios: durations (`3ms`),
/// ranges (`0..6`, `0.05ms..3ms`), rates (`10/s`) and plain numbers. Each returns `nil` for text
/// it does not accept; the caller turns that into an error naming the file, line and key.
public enum ValueText {
    /// Nanoseconds per unit suffix.
    static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
    ]

    /// A non-negative duration such as `200ms`, `0.05ms`, `1.5s`, `300us` or `40ns`, exactly in
    /// nanoseconds (decimal digits are parsed as integers, never through a `Double`; digits finer
    /// than a nanosecond are rounded to the nearest).
    public static func duration(_ text: String) -> Nanoseconds? {
        let text = trimmed(text)
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            let number = String(text.dropLast(suffix.count))
            return decimal(number, scale: scale)
        }
        return nil
    }

    /// A non-negative decimal number times `scale`, rounded to the nearest integer.
    static func decimal(_ text: String, scale: Int64) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.count <= 9, fraction.count <= 9,
            whole.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let wholeValue = Int64(whole) ?? 0
        var fractionValue: Int64 = 0
        var denominator: Int64 = 1
        for digit in fraction {
            fractionValue = fractionValue * 10 + Int64(digit.wholeNumberValue ?? 0)
            denominator *= 10
        }
        let (product, overflow) = wholeValue.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        return product + (fractionValue * scale + denominator / 2) / denominator
    }

    /// A range `LOW..HIGH` whose ends `parse` accepts, with `LOW <= HIGH`.
    public static func range<T: Comparable>(_ text: String, _ parse: (String) -> T?) -> ClosedRange<T>? {
        let text = trimmed(text)
        guard let dots = text.firstRange(of: "..") else { return nil }
        guard let low = parse(String(text[..<dots.lowerBound])),
            let high = parse(String(text[dots.upperBound...])), low <= high
        else { return nil }
        return low...high
    }

    /// A plain integer, optionally signed (`+5`, `-3`, `42`).
    public static func integer(_ text: String) -> Int? {
        let text = trimmed(text)
        if text.hasPrefix("+") { return Int(text.dropFirst()) }
        return Int(text)
    }

    /// A finite decimal number, optionally signed; no exponents, no `inf`/`nan`.
    public static func number(_ text: String) -> Double? {
        let text = trimmed(text)
        var body = Substring(text)
        if body.hasPrefix("+") || body.hasPrefix("-") { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
            body.filter({ $0 == "." }).count <= 1, body != "."
        else { return nil }
        return Double(text.hasPrefix("+") ? String(text.dropFirst()) : text)
    }

    /// A rate such as `10/s` or `+30/s` (a number per second), optionally signed.
    public static func perSecond(_ text: String) -> Double? {
        let text = trimmed(text)
        guard text.hasSuffix("/s") else { return nil }
        return number(String(text.dropLast(2)))
    }

    /// An unsigned 64-bit integer in decimal or `0x` hexadecimal.
    public static func unsigned(_ text: String) -> UInt64? {
        let text = trimmed(text)
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    /// `yes`/`no` (also `true`/`false`, `on`/`off`).
    package static func boolean(_ text: String) -> Bool? {
        switch trimmed(text).lowercased() {
        case "yes", "true", "on": return true
        case "no", "false", "off": return false
        default: return nil
        }
    }

    /// Text without leading and trailing spaces and tabs.
    public static func trimmed<S: StringProtocol>(_ text: S) -> String {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
        return String(slice)
    }

    /// Splits a line into words on spaces and tabs.
    public static func words<S: StringProtocol>(_ text: S) -> [String] {
        Substring(text).split(whereSeparator: { (c: Character) in c == " " || c == "\t" || c == "\r" }).map(String.init)
    }

    /// A duration for messages: `3ms`, `50us`, `1.5s` (the largest unit that keeps it exact).
    public static func durationText(_ nanoseconds: Nanoseconds) -> String {
        for (suffix, scale) in units.reversed() where suffix != "µs" {
            if nanoseconds % scale == 0 { return "\(nanoseconds / scale)\(suffix)" }
        }
        return "\(nanoseconds)ns"
    }
}
