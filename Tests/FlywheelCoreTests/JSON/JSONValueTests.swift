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
}
