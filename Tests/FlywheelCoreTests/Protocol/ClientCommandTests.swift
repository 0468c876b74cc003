import Testing
@testable import FlywheelCore

/// What an error repeats of a client's line: its names, never more than ``Excerpt/limitBytes``
/// bytes of each, so the answer to a line of any length (up to 64 KiB) stays a short sentence.
@Suite("Client command errors")
struct ClientCommandTests {
    static func error(_ line: String) -> ProtocolError? {
        do {
            _ = try ClientCommand.parse(Array(line.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("an unknown command of 60,000 bytes is named by its first 48 and an ellipsis")
    func longCommandName() throws {
        let name = String(repeating: "abc", count: 20_000)
        let error = try #require(Self.error(#"{"cmd":"\#(name)"}"#))
        #expect(error.code == .unknownCommand)
        #expect(error.message.utf8.count < 160)
        #expect(error.message.contains("\"" + String(name.prefix(48)) + "…\""))
    }

    @Test("an unknown key, class and control are cut the same way; short ones are whole")
    func longNames() throws {
        let long = String(repeating: "k", count: 5_000)
        let key = try #require(Self.error(#"{"cmd":"ping","\#(long)":1}"#))
        #expect(key.code == .unknownField)
        #expect(key.message.contains("\"" + String(repeating: "k", count: 48) + "…\""))
        #expect(key.message.utf8.count < 160)
        let className = try #require(Self.error(#"{"cmd":"watch","classes":["\#(long)"]}"#))
        #expect(className.code == .unknownClass)
        #expect(className.message.utf8.count < 400)
        let control = try #require(Self.error(#"{"cmd":"set","control":"\#(long)"}"#))
        #expect(control.code == .unknownControl)
        #expect(control.message.utf8.count < 160)
        let short = try #require(Self.error(#"{"cmd":"pong"}"#))
        #expect(short.message.hasPrefix("Unknown command \"pong\";"))
    }

    @Test("the JSON parser's messages cut the client's key and number too: a missing colon, a key twice, a number out of range")
    func parserMessages() throws {
        let long = String(repeating: "k", count: 65_000)
        let cut = "\"" + String(repeating: "k", count: 48) + "…\""
        let colon = try #require(Self.error(#"{"\#(long)"}"#))
        #expect(colon.code == .invalidJSON)
        #expect(colon.message.contains("after the key " + cut), "\(colon.message.prefix(200))")
        #expect(colon.message.utf8.count < 200)
        let key = String(repeating: "k", count: 32_000)
        let twice = try #require(Self.error(#"{"cmd":"ping","\#(key)":0,"\#(key)":0}"#))
        #expect(twice.message.contains("the key " + cut + " appears twice"), "\(twice.message.prefix(200))")
        #expect(twice.message.utf8.count < 200)
        let number = try #require(Self.error(#"{"cmd":"ping","n":1"# + String(repeating: "0", count: 65_000) + "}"))
        #expect(number.message.contains("the number 1" + String(repeating: "0", count: 47) + "… is out of range"), "\(number.message.prefix(200))")
        #expect(number.message.utf8.count < 200)
    }

    @Test("a command of 64 members parses; at the 65th key or item the parse stops with invalid-json")
    func memberBound() throws {
        let keys = (0..<63).map { #","k\#($0)":0"# }.joined()
        let atLimit = try #require(Self.error(#"{"cmd":"ping""# + keys + "}"))
        #expect(atLimit.code == .unknownField)  // 64 members: parsed whole, then judged
        let over = try #require(Self.error(#"{"cmd":"ping""# + keys + #","x":0}"#))
        #expect(over.code == .invalidJSON)
        #expect(over.message.contains("an object of more than 64 members"))
        let items = Array(repeating: #""tempo""#, count: 65).joined(separator: ",")
        let array = try #require(Self.error(#"{"cmd":"watch","classes":["# + items + "]}"))
        #expect(array.code == .invalidJSON)
        #expect(array.message.contains("an array of more than 64 items"))
        // Configuration files are not bounded so: 6,000 devices load.
        #expect(throws: Never.self) { try JSONParser.parse(Array(("[" + Array(repeating: "0", count: 6000).joined(separator: ",") + "]").utf8)) }
    }

    @Test("a cut never splits a character: 2-byte and 4-byte characters end before the limit")
    func cutAtCharacters() {
        #expect(Excerpt.of(String(repeating: "é", count: 100)) == String(repeating: "é", count: 24) + "…")
        #expect(Excerpt.of(String(repeating: "🎛", count: 20)) == String(repeating: "🎛", count: 12) + "…")
        let exact = String(repeating: "x", count: Excerpt.limitBytes)
        #expect(Excerpt.of(exact) == exact)
        #expect(Excerpt.of("x" + exact) == exact + "…")
    }
}
