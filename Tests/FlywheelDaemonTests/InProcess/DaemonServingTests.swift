import FlywheelCore
@testable import FlywheelDaemon
import Glibc
import Testing

/// What flywheeld serves, in this process and in virtual time: a configured device's route, a
/// reload that keeps its clients, a line too long. (What only the binary can show — signals,
/// socket activation, exit status, systemd's notifications — stays in FlywheelCLITests.)
@Suite("flywheeld serving, in process", .serialized)
@MainActor
struct DaemonServingTests {
    static let flick = Hands.root + "/hardware/scenarios/flick.sim"

    /// A configuration file with `text`; its path.
    static func write(_ text: String) throws -> String {
        var template = Array("/tmp/flywheel-config-XXXXXX".utf8CString)
        let path = String(cString: mkdtemp(&template)!) + "/flywheel.json5"
        try StripDaemonTests.write(text, to: path)
        return path
    }

    @Test("a configured device's control routes the simulated knob, and its name reaches hello")
    func deviceRole() throws {
        let path = try Self.write("{ devices: [ { name: 'kitchen knob', profile: 'ec11', control: 'scrub' } ] }")
        let daemon = try InProcessDaemon([
            "--config", path, "--simulate", Self.flick, "--hold-until-clients", "1", "--frames", "0", "--scrub-duration", "214",
        ])
        defer { daemon.stop() }
        let client = try daemon.connect()
        let hello = try #require(try client.next())
        #expect(hello["devices"]?.encoded().contains("kitchen knob") == true)
        let committed = try client.next(where: { $0["class"]?.stringValue == "scrub" && $0["phase"]?.stringValue == "committed" })
        #expect((committed?["position"]?.doubleValue ?? 0) > 6)
    }

    @Test("a reload applies the new configuration without dropping clients, and keeps the running one when the new file is bad")
    func reload() throws {
        let path = try Self.write("{ controls: { tempo: { bpm: 96 } } }")
        let daemon = try InProcessDaemon(["--config", path, "--frames", "0"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        try client.send("{\"cmd\":\"get\"}")
        #expect(try client.next()?["tempo"]?["bpm"] == .int(96))
        try StripDaemonTests.write("{ controls: { tempo: { range: [40, 208], table: 'maelzel' } } }", to: path)
        daemon.daemon.reload()  // what SIGHUP does (DaemonEndToEndTests sends the signal itself)
        let state = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(state?["tempo"]?["table"] == .string("maelzel"))
        #expect(state?["tempo"]?["bpm"] == .int(96))  // kept: 96 is a Maelzel marking
        try StripDaemonTests.write("{ controls: { tempo: { range: [300, 20] } } }", to: path)
        daemon.daemon.reload()
        let kept = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(kept?["tempo"]?["table"] == .string("maelzel"))
        try client.send("{\"cmd\":\"ping\"}")
        #expect(try client.next()?["class"] == .string("pong"))
    }

    @Test("a reload says what it did not apply: a changed device list or socket waits for a restart, an unchanged one is not mentioned")
    func reloadSaysWhatWaits() throws {
        let path = try Self.write("{ devices: [ { profile: 'ec11', gpio: { chip: 'gpiochip9', a: 17, b: 27 } } ] }")
        let daemon = try InProcessDaemon(["--config", path, "--frames", "0", "--quiet"])
        defer { daemon.stop() }
        try StripDaemonTests.write("{ devices: [ { profile: 'ec11', gpio: { chip: 'gpiochip9', a: 17, b: 27 } } ], controls: { tempo: { bpm: 90 } } }", to: path)
        daemon.daemon.reload()
        #expect(daemon.said.last == "reloaded \(path).", "\(daemon.said)")
        try StripDaemonTests.write("{ devices: [ { profile: 'ec11', gpio: { chip: 'gpiochip9', a: 5, b: 6 } } ], socket: { mode: '0666' } }", to: path)
        daemon.daemon.reload()
        #expect(daemon.said.last == "reloaded \(path); not applied until flywheeld restarts: the devices (devices[0] changed) and the socket's settings (sudo systemctl restart flywheeld).", "\(daemon.said)")
        // Measured against what runs (the start's), not the last file read: a change elsewhere still
        // says the devices wait, and the start's devices back say nothing.
        try StripDaemonTests.write("{ devices: [ { profile: 'ec11', gpio: { chip: 'gpiochip9', a: 5, b: 6 } } ], feel: { damping: 0.5 } }", to: path)
        daemon.daemon.reload()
        #expect(daemon.said.last?.contains("the devices (devices[0] changed)") == true, "\(daemon.said)")
        try StripDaemonTests.write("{ devices: [ { profile: 'ec11', gpio: { chip: 'gpiochip9', a: 17, b: 27 } } ] }", to: path)
        daemon.daemon.reload()
        #expect(daemon.said.last == "reloaded \(path).", "\(daemon.said)")
    }

    @Test("a line over 64 KiB gets an error and the connection is closed")
    func longLine() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        try client.send(Array(repeating: UInt8(ascii: "x"), count: 70_000))
        #expect(try client.next()?["code"] == .string("line-too-long"))
        #expect(try client.next() == nil)
        let other = try daemon.connect()  // the daemon carries on
        #expect(try other.next()?["class"] == .string("hello"))
    }
}
