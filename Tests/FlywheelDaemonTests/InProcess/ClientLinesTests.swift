import FlywheelCore
@testable import FlywheelDaemon
import Glibc
import Testing

/// What a client's lines get from flywheeld, in this process and in virtual time: each malformed
/// line its error, a line cut off or trickled or too long, a CR at the limit. The connection and
/// the other clients carry on. (The same server as the binary's: DaemonEndToEndTests keeps the
/// signals, the socket file and activation, which only the binary shows.)
@Suite("flywheeld's answers to a client's lines, in process", .serialized)
@MainActor
struct ClientLinesTests {
    static let flick = Hands.root + "/hardware/scenarios/flick.sim"

    static let malformed: [(String, String)] = [
        ("{", "invalid-json"), ("[1,2]", "not-an-object"), ("\"ping\"", "not-an-object"), ("42", "not-an-object"),
        ("null", "not-an-object"), ("{}", "missing-field"), ("{\"cmd\":5}", "bad-type"), ("{\"cmd\":null}", "bad-type"),
        ("{\"cmd\":\"dance\"}", "unknown-command"), ("{\"cmd\":\"ping\",\"x\":1}", "unknown-field"),
        ("{\"cmd\":\"ping\"} trailing", "invalid-json"), ("{\"cmd\":\"ping\",\"cmd\":\"get\"}", "invalid-json"),
        ("{\"cmd\":\"watch\",\"classes\":\"tempo\"}", "bad-type"), ("{\"cmd\":\"watch\",\"classes\":[1]}", "bad-type"),
        ("{\"cmd\":\"watch\",\"classes\":[\"weather\"]}", "unknown-class"), ("{\"cmd\":\"watch\",\"frames\":\"yes\"}", "bad-type"),
        ("{\"cmd\":\"set\"}", "missing-field"), ("{\"cmd\":\"set\",\"control\":7}", "bad-type"),
        ("{\"cmd\":\"set\",\"control\":\"pitch\"}", "unknown-control"), ("{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":\"loud\"}", "bad-type"),
        ("{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":1e300}", "out-of-range"), ("{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":-5}", "out-of-range"), ("{\"cmd\":\"set\",\"control\":\"tempo\"}", "missing-field"),
        ("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\"fast\"}", "bad-type"), ("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":900}", "out-of-range"),
        ("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":-5}", "out-of-range"),
        // Found by fuzz-ClientCommand: a bpm too large for an Int trapped the conversion.
        ("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":934444444444444444444444444444444444}", "out-of-range"), ("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":NaN}", "invalid-json"),
        ("{\"cmd\":\"set\",\"control\":\"tempo\",\"range\":[300,20]}", "out-of-range"), ("{\"cmd\":\"set\",\"control\":\"tempo\",\"range\":[20]}", "bad-type"),
        ("{\"cmd\":\"set\",\"control\":\"tempo\",\"table\":\"roman\"}", "out-of-range"),
        ("{\"cmd\":\"set\",\"control\":\"scrub\",\"duration\":-1}", "out-of-range"), ("{\"cmd\":\"set\",\"control\":\"scrub\",\"duration\":\"long\"}", "bad-type"),
        ("{\"cmd\":\"set\",\"control\":\"scrub\",\"position\":-3}", "out-of-range"),
        ("{\"cmd\":\"set\",\"control\":\"scrub\",\"duration\":10,\"position\":20}", "out-of-range"),
        ("{\"cmd\":\"set\",\"control\":\"scrub\"}", "missing-field"), ("{\"cmd\":\"set\",\"control\":\"mode\",\"mode\":\"karaoke\"}", "out-of-range"),
        ("{\"cmd\":\"set\",\"control\":\"mode\"}", "missing-field"), ("{\"cmd\":\"get\",\"verbose\":true}", "unknown-field"),
        ("{\"cmd\":\"tap\",\"bpm\":1}", "unknown-field"), (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "invalid-json"),
    ]

    @Test("≥ 30 malformed lines each get the right error; the connection and a client watching the flick carry on")
    func malformedInput() throws {
        #expect(Self.malformed.count >= 30)
        let daemon = try InProcessDaemon(["--simulate", Self.flick, "--hold-until-clients", "2", "--frames", "0"])
        defer { daemon.stop() }
        let watcher = try daemon.connect()
        let sender = try daemon.connect()
        _ = try sender.next()  // hello
        for (line, code) in Self.malformed {
            try sender.send(line)
            let answer = try sender.next(where: { $0["class"]?.stringValue == "error" || $0["class"]?.stringValue == "pong" })
            #expect(answer?["code"]?.stringValue == code, "\(line) → \(answer?.encoded() ?? "nothing")")
            #expect((answer?["message"]?.stringValue?.count ?? 0) > 10)
        }
        // Invalid UTF-8, then the connection still answers.
        try sender.send([0x7B, 0x22, 0xFF, 0x22, 0x7D, 0x0A])
        #expect(try sender.next(where: { $0["class"]?.stringValue == "error" })?["code"] == .string("invalid-utf8"))
        #expect(try sender.pong(passing: ["tempo", "scrub", "device"]))
        // The watcher received the whole flick undisturbed: what the pipeline makes of it alone.
        let events = try ScenarioClientsTests.events(of: watcher)
        let expected = try ScenarioClientsTests.flickEvents()
        #expect(events.count > 10)
        #expect(events == expected)
    }

    @Test("disconnecting mid-line, trickling a line byte by byte, a 1 MB line and invalid UTF-8")
    func faults() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        defer { daemon.stop() }
        let witness = try daemon.connect()
        _ = try witness.next()

        // Half a command, then gone.
        do {
            let quitter = try daemon.connect()
            try quitter.send(Array("{\"cmd\":\"pi".utf8))
        }
        #expect(try witness.pong())

        // A line trickled a byte at a time while another client is served between the bytes.
        let trickler = try daemon.connect()
        _ = try trickler.next()
        for byte in "{\"cmd\":\"ping\"}".utf8 {
            try trickler.send([byte])
            #expect(try witness.pong())
        }
        try trickler.send([0x0A])
        #expect(try trickler.next()?["class"] == .string("pong"))

        // Invalid UTF-8 is an error reply; the connection carries on.
        try trickler.send([0x7B, 0xFF, 0xFE, 0x7D, 0x0A])
        #expect(try trickler.next()?["code"] == .string("invalid-utf8"))
        #expect(try trickler.pong())

        // A 1 MB line without a newline: an error, the connection closed, nobody else affected.
        let flooder = try daemon.connect()
        _ = try flooder.next()
        #expect(try flooder.send(Array(repeating: UInt8(ascii: "a"), count: 1 << 20)) == false, "the daemon stops reading it before the megabyte is in")
        #expect(try flooder.next()?["code"] == .string("line-too-long"))
        #expect(try flooder.next() == nil)
        #expect(try witness.pong())
        #expect(daemon.daemon.server.clientCount == 2)
    }

    @Test("a CR and its LF in separate writes after a 64 KiB line: answered, not cut off as too long")
    func crlfAtLimit() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        try client.send([UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024 - 14) + Array("{\"cmd\":\"ping\"}\r".utf8))
        // The daemon reads all of it, CR included (16 KiB a pacing window), before the LF is sent;
        // another client is served meanwhile.
        #expect(try client.waitUntilRead())
        let other = try daemon.connect()
        _ = try other.next()
        #expect(try other.pong())
        try client.send([0x0A])
        #expect(try client.next()?["class"] == .string("pong"))
    }
}
