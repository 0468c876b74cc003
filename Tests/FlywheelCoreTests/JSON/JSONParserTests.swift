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
        // JSON5's numbers and words stay refused on a client's line: it is strict JSON.
        ("Infinity", "expected a value but found 'I' at byte 0"),
        ("-Infinity", "expected digits at byte 1"),
        ("+1", "expected a value but found '+' at byte 0"),
        (".5", "expected a value but found '.' at byte 0"),
        ("0x10", "unexpected text after the JSON value at byte 1"),
        ("[1.]", "expected digits after the decimal point at byte 3"),
        ("standard", "expected a value but found 's' at byte 0"),
        ("\u{FEFF}{}", "expected a value but found U+FEFF at byte 0"),
        ("[\u{A0}1]", "expected a value but found U+00A0 at byte 1"),
        ("[é]", "expected a value but found 'é' at byte 1"),
    ]

    /// What parsing `text` (as JSON5 with `json5`) fails with ("parsed …" when it parses).
    static func failure(_ text: String, json5: Bool = false) -> String {
        do {
            let value = try json5 ? JSONParser.parseJSON5(Array(text.utf8)).value : JSONParser.parse(Array(text.utf8))
            return "parsed \(value.encoded())"
        } catch {
            return error.description
        }
    }

    @Test("malformed input fails with the problem and the byte offset", arguments: 0..<bad.count)
    func failures(_ index: Int) {
        let (text, message) = Self.bad[index]
        #expect(Self.failure(text) == message, "\(text)")
    }

    /// A number as its case and value, `int 96` or `double 96.0` (`==` compares encoded text,
    /// where 96 and 96.0 are alike, and so are NaN and null).
    static func number(_ value: JSONValue?) -> String {
        switch value {
        case .int(let number)?: return "int \(number)"
        case .double(let number)?: return "double \(number)"
        default: return "not a number: \(value?.encoded() ?? "nothing")"
        }
    }

    @Test("JSON5 numbers as the specification writes them: a sign, hexadecimal, a point at either end, Infinity, NaN")
    func json5Numbers() throws {
        let cases: [(String, String)] = [
            ("+96", "int 96"), ("0x60", "int 96"), ("0X60", "int 96"), ("-0x1F", "int -31"), ("+0xff", "int 255"),
            ("0x7FFFFFFFFFFFFFFF", "int 9223372036854775807"), ("-0x8000000000000000", "int -9223372036854775808"),
            ("96.", "double 96.0"), ("96.0", "double 96.0"), (".5", "double 0.5"), ("-.5e1", "double -5.0"), ("+.25", "double 0.25"),
            ("5.e-1", "double 0.5"), ("0.", "double 0.0"), ("-0", "int 0"),
            ("Infinity", "double inf"), ("+Infinity", "double inf"), ("-Infinity", "double -inf"),
            ("NaN", "double nan"), ("+NaN", "double nan"), ("-NaN", "double nan"),
        ]
        for (text, expected) in cases {
            let (value, _) = try JSONParser.parseJSON5(Array("{ n: \(text) }".utf8))
            #expect(Self.number(value["n"]) == expected, "\(text)")
        }
        let (list, _) = try JSONParser.parseJSON5(Array("[true, false, null, Infinity, 1]".utf8))
        #expect(list.encoded() == "[true,false,null,null,1]")  // NaN and Infinity encode as null, never as invalid JSON
    }

    static let badJSON5: [(String, String)] = [
        ("{ n: 0x }", "expected hex digits after 0x at byte 7"),
        ("{ n: 0xG }", "expected hex digits after 0x at byte 7"),
        ("{ n: -0x }", "expected hex digits after 0x at byte 8"),
        ("{ n: 0x1.5 }", #"expected ',' or '}' after the value of "n" at byte 8"#),
        ("{ n: 0xFFFFFFFFFFFFFFFFFF }", "the number 0xFFFFFFFFFFFFFFFFFF is out of range at byte 5"),
        ("{ n: 0x8000000000000000 }", "the number 0x8000000000000000 is out of range at byte 5"),
        ("{ n: -0x8000000000000001 }", "the number -0x8000000000000001 is out of range at byte 5"),
        ("{ n: + }", "expected digits at byte 6"),
        ("{ n: - }", "expected digits at byte 6"),
        ("{ n: . }", "expected digits after the decimal point at byte 6"),
        ("{ n: +. }", "expected digits after the decimal point at byte 7"),
        ("{ n: .e5 }", "expected digits after the decimal point at byte 6"),
        ("{ n: 1e }", "expected digits in the exponent at byte 7"),
        ("{ n: 1e+ }", "expected digits in the exponent at byte 8"),
        ("{ n: ++1 }", "expected digits at byte 6"),
        ("{ n: 0660 }", #"expected ',' or '}' after the value of "n" at byte 6"#),
        ("{ n: 1e999 }", "the number 1e999 is out of range at byte 5"),
        ("{ n: -Infinityx }", "expected digits, Infinity or NaN after the sign at byte 6"),
        ("{ n: -infinity }", "expected digits, Infinity or NaN after the sign at byte 6"),
        ("{ n: Infinityx }", #"strings need quotes: write "Infinityx" at byte 5"#),
        ("{ n: infinity }", #"strings need quotes: write "infinity" at byte 5"#),
        ("{ n: nan }", #"strings need quotes: write "nan" at byte 5"#),
        ("{ n: truex }", #"strings need quotes: write "truex" at byte 5"#),
        ("{ n: standard }", #"strings need quotes: write "standard" at byte 5"#),
        ("{ n: ios-normal, }", #"strings need quotes: write "ios-normal" at byte 5"#),
        ("{ n: hold-scrub// the jog\n }", #"strings need quotes: write "hold-scrub" at byte 5"#),
        ("{ n: [tempo, scrub] }", #"strings need quotes: write "tempo" at byte 6"#),
        ("{ n: hard}", #"strings need quotes: write "hard" at byte 5"#),
        ("{ n: \u{FEFF}1 }", "expected a value but found U+FEFF at byte 5"),
        ("{\u{FEFF} n: 1 }", "expected a key at byte 1"),
        ("{ n: 1 }\u{FEFF}", "unexpected text after the configuration object at byte 8"),
        ("\u{FEFF}\u{FEFF}{}", "expected a value but found U+FEFF at byte 3"),
    ]

    @Test("malformed JSON5 numbers and words fail with the problem and the byte offset, never a crash", arguments: badJSON5)
    func json5Failures(_ text: String, _ message: String) {
        #expect(Self.failure(text, json5: true) == message)
    }

    @Test("a byte-order mark at the very start of a JSON5 document is skipped; lines and offsets count it")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let (value, lines) = try JSONParser.parseJSON5(bom + Array("{\n  a: 1,\n  b: 'x' }".utf8))
        #expect(value.encoded() == #"{"a":1,"b":"x"}"# && lines == ["a": 2, "b": 3])
        #expect(try JSONParser.parseJSON5(bom).value.encoded() == "{}")
        #expect(throws: JSONParser.Failure(offset: 8, problem: #"strings need quotes: write "hard""#)) {
            try JSONParser.parseJSON5(bom + Array("{ a: hard }".utf8))
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
