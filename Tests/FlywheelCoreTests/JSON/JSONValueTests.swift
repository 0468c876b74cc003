import Testing
@testable import FlywheelCore

@Suite("JSON encoding")
struct JSONValueTests {
    @Test("strings are quoted with quotes, backslashes and control characters escaped, other bytes as they are")
    func quoting() {
        // Short (stored inline) and long strings, with nothing to escape and with each escape.
        let plain = ["", "tempo", "settled", "scrub-commit", "a rather longer text than fifteen bytes", "é", "naïve ☃ 🎛", "\u{7F}~ "]
        var texts = plain
        for special in ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{1B}"] {
            texts += plain.map { $0 + special } + plain.map { special + $0 + special + $0 }
        }
        for text in texts {
            var expected = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": expected += "\\\""
                case "\\": expected += "\\\\"
                case "\n": expected += "\\n"
                case "\r": expected += "\\r"
                case "\t": expected += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    expected += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: expected.unicodeScalars.append(scalar)
                }
            }
            expected += "\""
            #expect(JSONValue.string(text).encoded() == expected, "\(Array(text.utf8))")
        }
    }

    @Test("a byte to escape is found at every place in a word (eight bytes at a time) and its neighbours are not escaped")
    func escapeAtEveryPlace() {
        for length in 0..<24 {
            for place in 0..<max(length, 1) {
                for special: UInt8 in [0x00, 0x01, 0x1F, 0x22, 0x5C, 0x0A] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if length > 0 { bytes[place] = special }
                    let expected = length > 0
                    bytes.withUnsafeBufferPointer { #expect(JSONValue.needsEscape($0) == expected, "\(bytes)") }
                    // Quoted, the run before it and the run after it are whole around its escape.
                    let escapes: [UInt8: String] = [0x00: "\\u0000", 0x01: "\\u0001", 0x1F: "\\u001f", 0x22: "\\\"", 0x5C: "\\\\", 0x0A: "\\n"]
                    let text = String(decoding: bytes, as: UTF8.self)
                    let quoted = length == 0 ? "\"\"" : "\"" + String(repeating: "a", count: place) + escapes[special]! + String(repeating: "a", count: length - place - 1) + "\""
                    #expect(JSONValue.string(text).encoded() == quoted)
                }
                // Neighbours of the escaped bytes, and UTF-8's high bytes, are written as they are.
                for plain: UInt8 in [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if length > 0 { bytes[place] = plain }
                    bytes.withUnsafeBufferPointer { #expect(!JSONValue.needsEscape($0), "\(bytes)") }
                }
            }
        }
    }

    @Test("a double is written as Swift's shortest description: six-decimal values (frames', scrubs') and every other")
    func doubles() {
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1e-3, 0.000999999, 0.001001, 1e-4, 1.5e-5, 0.1, 0.2, 0.3, 1.000001, 99_999_999.999999, 1e8, 1e8 + 0.5,
            123_456.789012, -7.25, 1e15, 1e16 + 2, 1.0 / 3, 2.0 / 3, .pi, .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D  // a fixed pseudo-random walk (a linear congruential sequence)
        for index in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let scale = [1.0, 10, 1_000, 100_000, 1e7, 1e9][index % 6]
            let raw = scale * (Double(state >> 11) / Double(UInt64(1) << 52) - 1)
            values += [raw, (raw * 1e6).rounded() / 1e6, (raw * 1e3).rounded() / 1e3]
        }
        for micros in stride(from: -2_000_000, through: 2_000_000, by: 997) { values.append(Double(micros) / 1e6) }
        for value in values {
            var bytes: [UInt8] = []
            JSONValue.appendDouble(value, into: &bytes)
            let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(value)")
        }
        for value in [Double.nan, .infinity, -.infinity] { #expect(JSONValue.double(value).encoded() == "null") }
    }

    @Test("objects keep their key order and escape strings")
    func ordering() {
        let value = JSONValue.object([
            ("z", .int(1)), ("a", .string("tab\t\"q\"\u{1}")), ("n", .null), ("f", .double(0.5)), ("b", .bool(true)),
            ("l", .array([.int(-2), .double(.nan)])), ("t", .number(Int64(1_500_000_000).secondsText)),
        ])
        #expect(value.encoded() == #"{"z":1,"a":"tab\t\"q\"\u0001","n":null,"f":0.5,"b":true,"l":[-2,null],"t":1.500000000}"#)
    }

    @Test("seconds text is exact to the nanosecond")
    func secondsText() {
        #expect(Int64(12_000_250_000).secondsText == "12.000250000")
        #expect(Int64(-5).secondsText == "-0.000000005")
        #expect(Int64(0).secondsText == "0.000000000")
    }

    @Test("decimals are written two digits at a time exactly as the number's text: every value to 100,000, each power of ten and its neighbours, the largest")
    func decimals() {
        var values = Array(UInt64(0)...100_000)
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        values += [UInt64.max, UInt64.max - 1, UInt64(Int64.max)]
        withUnsafeTemporaryAllocation(byteCount: JSONValue.decimalCapacity, alignment: 1) { buffer in
            for value in values {
                let count = JSONValue.writeDecimal(value, into: buffer)
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[(buffer.count - count)...]), as: UTF8.self)
                #expect(text == String(value))
                if text != String(value) { return }
            }
        }
    }
}
