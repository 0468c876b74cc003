import Testing
@testable import FlywheelCore

@Suite("JSON encoding")
struct JSONValueTests {
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
