import Testing
@testable import FlywheelCore

@Suite("JSON parser")
struct JSONParserTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test("JSON5 array members get their lines (counted on, not from the start for each: 6,000 devices load linearly)")
    func arrayMemberLines() throws {
        let entries = (0..<6000).map { "{ profile: 'powermate', path: '/dev/input/event\($0)' }" }
        let text = "{\n  devices: [\n" + entries.joined(separator: ",\n\n") + "\n  ],\n  list: [1,\n 2],\n}"
        let (value, lines) = try JSONParser.parseJSON5(Array(text.utf8))
        guard case .array(let devices)? = value["devices"] else { Issue.record("no devices array"); return }
        #expect(devices.count == 6000)
        #expect(lines["devices[0]"] == 3 && lines["devices[1]"] == 5 && lines["devices[5999]"] == 3 + 2 * 5999)
        #expect(lines["devices[5999].path"] == 3 + 2 * 5999)
        #expect(lines["list[0]"] == 3 + 2 * 5999 + 2 && lines["list[1]"] == 3 + 2 * 5999 + 3)
    }

    @Test("parses every kind of value and round-trips through the encoder")
    func values() throws {
        let text = #"{"cmd":"set","n":-12,"x":2.5e-3,"ok":true,"no":false,"nil":null,"list":[1,[2,{}]],"s":"a\"\\\/\b\f\n\r\t\u00e9\ud83c\udfb9"}"#
        let value = try Self.parse(" \n" + text + "\t")
        #expect(value["cmd"]?.stringValue == "set")
        #expect(value["n"] == .int(-12))
        #expect(value["x"]?.doubleValue == 0.0025)
        #expect(value["s"]?.stringValue == "a\"\\/\u{8}\u{c}\n\r\té🎹")
        #expect(try Self.parse(value.encoded()) == value)
    }

    static let bad: [(String, String)] = [
        ("", "expected a value but the input ended at byte 0"),
        ("{", "expected a quoted key at byte 1"),
        (#"{"a" 1}"#, #"expected ':' after the key "a" at byte 5"#),
        (#"{"a":1,}"#, "expected a quoted key at byte 7"),
        ("[1 2]", "expected ',' or ']' at byte 3"),
        ("tru", "expected 'true' at byte 0"),
        ("01", "unexpected text after the JSON value at byte 1"),
        ("-", "expected digits at byte 1"),
        ("1.", "expected digits after the decimal point at byte 2"),
        ("1e", "expected digits in the exponent at byte 2"),
        ("1e999", "the number 1e999 is out of range at byte 0"),
        ("\"a\u{1}\"", "control character in a string (escape it) at byte 2"),
        (#""\x""#, #"unknown escape '\x' at byte 2"#),
        (#""\ud800""#, #"a lone high surrogate in \u escapes at byte 7"#),
        (#""\udc00""#, #"a lone low surrogate in \u escapes at byte 7"#),
        (#"{"a":1,"a":2}"#, #"the key "a" appears twice at byte 12"#),
        ("\"abc", "expected '\"' to close the string but the input ended at byte 4"),
        ("{} {}", "unexpected text after the JSON value at byte 3"),
        ("NaN", "expected a value but found 'N' at byte 0"),
    ]

    @Test("malformed input fails with the problem and the byte offset", arguments: 0..<bad.count)
    func failures(_ index: Int) {
        let (text, message) = Self.bad[index]
        do {
            let value = try JSONParser.parse(Array(text.utf8))
            Issue.record("parsed \(value.encoded()) from \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("invalid UTF-8 is found before parsing: overlong, surrogate, truncated, stray continuation")
    func utf8() {
        #expect(JSONParser.firstInvalidUTF8([0x22, 0xC0, 0x80, 0x22]) == 1)  // overlong NUL
        #expect(JSONParser.firstInvalidUTF8([0x22, 0xED, 0xA0, 0x80, 0x22]) == 1)  // UTF-16 surrogate
        #expect(JSONParser.firstInvalidUTF8([0x22, 0xE2, 0x82]) == 1)  // truncated
        #expect(JSONParser.firstInvalidUTF8([0x80]) == 0)
        #expect(JSONParser.firstInvalidUTF8(Array("é🎹€".utf8)) == nil)
        #expect(throws: JSONParser.Failure(offset: 1, problem: "invalid UTF-8")) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test("invalid UTF-8 after any run of ASCII (read eight bytes at a time) is found at its own offset")
    func utf8AfterASCII() {
        for run in 0..<24 {
            let ascii = [UInt8](repeating: 0x61, count: run)
            #expect(JSONParser.firstInvalidUTF8(ascii) == nil)
            #expect(JSONParser.firstInvalidUTF8(ascii + [0xFF] + ascii) == run)
            #expect(JSONParser.firstInvalidUTF8(ascii + [0xE2, 0x82] + ascii) == run)
            #expect(JSONParser.firstInvalidUTF8(ascii + Array("é🎹".utf8) + ascii + [0xC0, 0x80]) == 2 * run + 6)
        }
    }

    @Test("nesting is limited")
    func depth() throws {
        _ = try Self.parse(String(repeating: "[", count: 32) + String(repeating: "]", count: 32))
        #expect(throws: JSONParser.Failure.self) { try Self.parse(String(repeating: "[", count: 33) + String(repeating: "]", count: 33)) }
    }
}
