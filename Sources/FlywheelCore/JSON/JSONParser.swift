/// A strict JSON parser (RFC 8259) for client commands: bytes in, ``JSONValue`` out.
///
/// It validates UTF-8, limits nesting depth, rejects trailing garbage, lone surrogates and
/// control characters in strings, and explains every failure in a sentence fragment naming the
/// byte offset, so a daemon can answer a bad line with an `error` and carry on.
public struct JSONParser {
    /// A parse failure: what was wrong and where.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Byte offset from the start of the input.
        public var offset: Int
        /// What was expected or found.
        public var problem: String
        public var description: String { "\(problem) at byte \(offset)" }
    }

    /// Deepest nesting of arrays and objects accepted.
    package static let maximumDepth = 32

    let bytes: [UInt8]
    var index = 0
    var depth = 0
    /// JSON5 for configuration files: comments, trailing commas, identifier keys, single quotes,
    /// and JSON5's numbers (``number()``).
    var json5 = false
    /// With JSON5: the 1-based line of every object member, by dotted path (`controls.tempo.range`, `devices[0].name`).
    var memberLines: [String: Int] = [:]
    var path: [String] = []
    /// The most members an object, or items an array, may have (nil: no bound).
    var maximumMembers: Int?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses a JSON5 configuration document and the line of every member; an empty document
    /// (or only comments) is an empty object. A byte-order mark, which some editors write, may
    /// start the document (only start it); offsets still count its three bytes.
    package static func parseJSON5(_ bytes: [UInt8]) throws(Failure) -> (value: JSONValue, memberLines: [String: Int]) {
        if let bad = firstInvalidUTF8(bytes) {
            throw Failure(offset: bad, problem: "invalid UTF-8")
        }
        var parser = JSONParser(bytes)
        parser.json5 = true
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        try parser.skipWhitespaceAndComments()
        if parser.index == bytes.count { return (.object([]), [:]) }
        let value = try parser.value()
        try parser.skipWhitespaceAndComments()
        guard parser.index == bytes.count else {
            throw Failure(offset: parser.index, problem: "unexpected text after the configuration object")
        }
        return (value, parser.memberLines)
    }

    /// 1-based line number of a byte offset.
    public static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes.prefix(offset) where byte == 0x0A { line += 1 }
        return line
    }

    /// 1-based column (in bytes) of a byte offset on its line.
    public static func column(of offset: Int, in bytes: [UInt8]) -> Int {
        let end = min(offset, bytes.count)
        var start = end
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        return end - start + 1
    }

    mutating func skipWhitespaceAndComments() throws(Failure) {
        while true {
            skipWhitespace()
            guard json5, index + 1 < bytes.count, bytes[index] == 0x2F else { return }
            if bytes[index + 1] == 0x2F {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if bytes[index + 1] == 0x2A {
                let start = index
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) { index += 1 }
                guard index + 1 < bytes.count else { throw Failure(offset: start, problem: "a /* comment that never ends") }
                index += 2
            } else {
                return
            }
        }
    }

    /// The 1-based line of `offset`, counted on from the last offset asked about (offsets only grow
    /// while parsing, so a file with thousands of keys is counted once, not once per key).
    mutating func lineNumber(at offset: Int) -> Int {
        if offset < lineCountedTo { lineCountedTo = 0; linesSoFar = 1 }
        while lineCountedTo < offset {
            if bytes[lineCountedTo] == 0x0A { linesSoFar += 1 }
            lineCountedTo += 1
        }
        return linesSoFar
    }
    var lineCountedTo = 0
    var linesSoFar = 1

    var dottedPath: String {
        var text = ""
        for part in path {
            if part.hasPrefix("[") { text += part } else { text += text.isEmpty ? part : "." + part }
        }
        return text
    }

    /// Parses one JSON document (surrounding whitespace allowed); with `maximumMembers`, an object
    /// of more members or an array of more items fails there, before the rest is parsed.
    public static func parse(_ bytes: [UInt8], maximumMembers: Int? = nil) throws(Failure) -> JSONValue {
        if let bad = firstInvalidUTF8(bytes) {
            throw Failure(offset: bad, problem: "invalid UTF-8")
        }
        return try parse(validUTF8: bytes, maximumMembers: maximumMembers)
    }

    /// ``parse(_:maximumMembers:)`` of bytes already found to be UTF-8 (a client's line is checked
    /// first, for its own error code): each byte is validated once.
    static func parse(validUTF8 bytes: [UInt8], maximumMembers: Int?) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.maximumMembers = maximumMembers
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw Failure(offset: parser.index, problem: "unexpected text after the JSON value")
        }
        return value
    }

    /// Offset of the first byte that is not valid UTF-8, or nil.
    package static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            // Eight ASCII bytes at a time (a command is usually all ASCII).
            if i + 8 <= n {
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: UInt64.self) }
                if word & 0x8080_8080_8080_8080 == 0 { i += 8; continue }
            }
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(b & 0x07)
            default: return i
            }
            guard i + length <= n else { return i }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += length
        }
        return nil
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    func fail(_ problem: String) -> Failure { Failure(offset: index, problem: problem) }

    mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("expected a value but the input ended") }
        switch bytes[index] {
        case 0x7B: return try object()
        case 0x5B: return try array()
        case 0x22: return .string(try string())
        case 0x27 where json5: return .string(try string())
        case let byte where json5 && Self.isIdentifierStart(byte): return try namedValue()
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39: return try number()
        case 0x2B where json5, 0x2E where json5: return try number()
        default: throw fail("expected a value but found \(characterShown())")
        }
    }

    /// The character at `index` as a message shows it: in quotes, or by its code point when it
    /// cannot be seen (a byte-order mark, a no-break space).
    func characterShown() -> String {
        let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars.first!
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        default:
            return "'\(scalar)'"
        }
    }

    /// JSON5: a word where a value goes, `true`, `false`, `null`, `Infinity` or `NaN`; any other
    /// word is a string written without its quotes (`friction: standard`), refused with the fix.
    mutating func namedValue() throws(Failure) -> JSONValue {
        let start = index
        let name = word()
        switch name {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            guard let number = Self.namedNumber(name) else {
                throw Failure(offset: start, problem: "strings need quotes: write \"\(Excerpt.of(name))\"")
            }
            return .double(number)
        }
    }

    /// JSON5's numbers written as words: `Infinity` and `NaN` (a configuration refuses them by key).
    static func namedNumber(_ name: String) -> Double? {
        switch name {
        case "Infinity": return .infinity
        case "NaN": return .nan
        default: return nil
        }
    }

    /// The text from `index` up to a space, a comma, a bracket, a colon, a quote or a slash (a
    /// comment), whatever the characters in it (`ios-normal`, `hold-scrub`).
    mutating func word() -> String {
        let start = index
        while index < bytes.count, !Self.endsWord(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    static func endsWord(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw fail("expected '\(word)'")
        }
        index += expected.count
    }

    mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= JSONParser.maximumDepth else { throw fail("nested deeper than \(JSONParser.maximumDepth) levels") }
    }

    mutating func object() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var pairs: [(String, JSONValue)] = []
        // Keys seen so far: a duplicate is found in constant time, so a line of many keys parses linearly.
        var keys: Set<String> = []
        try skipWhitespaceAndComments()
        if index < bytes.count, bytes[index] == 0x7D { index += 1; return .object(pairs) }
        while true {
            try skipWhitespaceAndComments()
            if json5, index < bytes.count, bytes[index] == 0x7D, !pairs.isEmpty { index += 1; return .object(pairs) }  // trailing comma
            if let limit = maximumMembers, pairs.count == limit { throw fail("an object of more than \(limit) members") }
            let keyOffset = index
            let key: String
            if index < bytes.count, bytes[index] == 0x22 || (json5 && bytes[index] == 0x27) {
                key = try string()
            } else if json5, index < bytes.count, Self.isIdentifierStart(bytes[index]) {
                let start = index
                while index < bytes.count, Self.isIdentifierStart(bytes[index]) || (0x30...0x39).contains(bytes[index]) { index += 1 }
                key = String(decoding: bytes[start..<index], as: UTF8.self)
            } else {
                throw fail(json5 ? "expected a key" : "expected a quoted key")
            }
            try skipWhitespaceAndComments()
            guard index < bytes.count, bytes[index] == 0x3A else { throw fail("expected ':' after the key \"\(Excerpt.of(key))\"") }
            index += 1
            try skipWhitespaceAndComments()
            path.append(key)
            if json5 {
                let line = lineNumber(at: keyOffset)
                if keys.contains(key) {
                    let first = memberLines[dottedPath] ?? 0
                    throw Failure(offset: keyOffset, problem: "the key \"\(Excerpt.of(key))\" appears twice (first on line \(first))")
                }
                memberLines[dottedPath] = line
            }
            let item = try value()
            path.removeLast()
            guard keys.insert(key).inserted else {
                throw Failure(offset: index, problem: "the key \"\(Excerpt.of(key))\" appears twice")
            }
            pairs.append((key, item))
            let valueEnd = index
            try skipWhitespaceAndComments()
            guard index < bytes.count else { throw fail("expected ',' or '}' but the input ended") }
            if bytes[index] == 0x2C { index += 1; continue }
            if bytes[index] == 0x7D { index += 1; return .object(pairs) }
            // A configuration's missing comma is shown where it is missing: after the value, not at the next key.
            if json5 { throw Failure(offset: valueEnd, problem: "expected ',' or '}' after the value of \"\(Excerpt.of(key))\"") }
            throw fail("expected ',' or '}'")
        }
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x24
    }

    mutating func array() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        try skipWhitespaceAndComments()
        if index < bytes.count, bytes[index] == 0x5D { index += 1; return .array(items) }
        while true {
            try skipWhitespaceAndComments()
            if json5, index < bytes.count, bytes[index] == 0x5D, !items.isEmpty { index += 1; return .array(items) }  // trailing comma
            if let limit = maximumMembers, items.count == limit { throw fail("an array of more than \(limit) items") }
            path.append("[\(items.count)]")
            if json5 { memberLines[dottedPath] = lineNumber(at: index) }
            items.append(try value())
            path.removeLast()
            let valueEnd = index
            try skipWhitespaceAndComments()
            guard index < bytes.count else { throw fail("expected ',' or ']' but the input ended") }
            if bytes[index] == 0x2C { index += 1; continue }
            if bytes[index] == 0x5D { index += 1; return .array(items) }
            if json5 { throw Failure(offset: valueEnd, problem: "expected ',' or ']' after this item") }
            throw fail("expected ',' or ']'")
        }
    }

    /// The value of a hex digit (either case), or nil.
    static func hexDigitValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x61...0x66: return UInt32(c - 0x61 + 10)
        case 0x41...0x46: return UInt32(c - 0x41 + 10)
        default: return nil
        }
    }

    mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigitValue(bytes[index]) else { throw fail("expected four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func string() throws(Failure) -> String {
        let quote = bytes[index]
        index += 1  // opening quote
        var runStart = index
        var text = ""
        func flush(_ end: Int) {
            if end > runStart { text += String(decoding: bytes[runStart..<end], as: UTF8.self) }
        }
        while true {
            guard index < bytes.count else { throw fail("expected '\"' to close the string but the input ended") }
            let c = bytes[index]
            if c == quote {
                flush(index)
                index += 1
                return text
            }
            if c < 0x20 { throw fail("control character in a string (escape it)") }
            if c != 0x5C { index += 1; continue }
            flush(index)
            index += 1
            guard index < bytes.count else { throw fail("expected an escape after '\\'") }
            let escape = bytes[index]
            index += 1
            var scalar: Unicode.Scalar
            switch escape {
            case 0x22: scalar = "\""
            case 0x27 where json5: scalar = "'"
            case 0x5C: scalar = "\\"
            case 0x2F: scalar = "/"
            case 0x62: scalar = "\u{08}"
            case 0x66: scalar = "\u{0C}"
            case 0x6E: scalar = "\n"
            case 0x72: scalar = "\r"
            case 0x74: scalar = "\t"
            case 0x75:
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                        throw fail("a lone high surrogate in \\u escapes")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate without its low surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw fail("a lone low surrogate in \\u escapes")
                }
                scalar = Unicode.Scalar(code)!
            default:
                index -= 1
                throw fail("unknown escape '\\\(String(decoding: [escape], as: UTF8.self))'")
            }
            text.unicodeScalars.append(scalar)
            runStart = index
        }
    }

    /// A number as JSON writes it, or with `json5` as JSON5 does too: a `+` sign, hexadecimal
    /// (`0x60`), no digits before or after the point (`.5`, `96.`), `Infinity` and `NaN`.
    ///
    /// One rule, JSON's, gives the case: an integer, written without a point or an exponent
    /// (hexadecimal included), is `.int`; any other number is `.double`. So `96.` is `96.0`, and a
    /// key of whole numbers (``ConfigReader/integer(_:in:default:)``, which takes only `.int`)
    /// refuses `arming_ms: 96.` as it refuses `arming_ms: 96.0`.
    mutating func number() throws(Failure) -> JSONValue {
        let start = index
        let negative = bytes[index] == 0x2D
        if negative || bytes[index] == 0x2B { index += 1 }
        if json5, index < bytes.count, Self.isIdentifierStart(bytes[index]) {
            let wordStart = index
            guard let named = Self.namedNumber(word()) else {
                throw Failure(offset: wordStart, problem: "expected digits, Infinity or NaN after the sign")
            }
            return .double(negative && named.isInfinite ? -named : named)  // `-NaN` is NaN
        }
        if json5, index + 1 < bytes.count, bytes[index] == 0x30, bytes[index + 1] | 0x20 == 0x78 {
            return try hexInteger(from: start, negative: negative)
        }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - from
        }
        var integerDigits = 1
        if index < bytes.count, bytes[index] == 0x30 { index += 1 } else { integerDigits = digits() }
        // JSON5 lets one side of the point go without digits, not both.
        let point = index < bytes.count && bytes[index] == 0x2E
        guard integerDigits > 0 || (json5 && point) else { throw fail("expected digits") }
        var integral = true
        if point {
            index += 1
            integral = false
            guard digits() > 0 || (json5 && integerDigits > 0) else { throw fail("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            integral = false
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { throw fail("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw outOfRange(from: start) }
        return .double(value)
    }

    /// JSON5's hexadecimal integer (`0x60`, `-0x1F`) from its `0x` at `index`, signed as `negative`
    /// says: an `.int`, or an error when no digit follows or it does not fit.
    mutating func hexInteger(from start: Int, negative: Bool) throws(Failure) -> JSONValue {
        index += 2
        let digitsStart = index
        while index < bytes.count, Self.hexDigitValue(bytes[index]) != nil { index += 1 }
        guard index > digitsStart else { throw fail("expected hex digits after 0x") }
        let digits = String(decoding: bytes[digitsStart..<index], as: UTF8.self)
        guard let value = Int((negative ? "-" : "") + digits, radix: 16) else { throw outOfRange(from: start) }
        return .int(value)
    }

    /// The number from `start` to `index` does not fit.
    func outOfRange(from start: Int) -> Failure {
        Failure(offset: start, problem: "the number \(Excerpt.of(String(decoding: bytes[start..<index], as: UTF8.self))) is out of range")
    }
}

extension JSONValue {
    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first(where: { $0.0 == key })?.1
    }

    /// A number as a Double (integers included), or nil.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The string, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The type's name for error messages: "a string", "a number", ….
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
