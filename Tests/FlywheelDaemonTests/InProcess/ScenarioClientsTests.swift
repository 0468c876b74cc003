import FlywheelCore
@testable import FlywheelDaemon
import Glibc
import Testing

/// A played scenario and reloads through flywheeld, in this process and in virtual time: 64
/// clients each get the whole flick; a reload ends the scrub under way; a configuration that
/// cannot be read, or is wrong, keeps the running one and says why. (The signal that asks for a
/// reload stays with the binary: DaemonEndToEndTests sends SIGHUP itself.)
@Suite("flywheeld playing and reloading, in process", .serialized)
@MainActor
struct ScenarioClientsTests {
    static let flick = ClientLinesTests.flick

    /// Tempo and scrub events as (class, bpm, value, phase, time from the first event).
    static func normalise(_ messages: [JSONValue]) -> [String] {
        let events = messages.filter { ["tempo", "scrub"].contains($0["class"]?.stringValue ?? "") }
        guard let first = events.first?["time"]?.doubleValue else { return [] }
        return events.map { event in
            let offset = Int(((event["time"]!.doubleValue! - first) * 1e6).rounded())  // microseconds
            return "\(event["class"]!.stringValue!) \(event["bpm"]?.encoded() ?? "") \(event["value"]?.encoded() ?? "") \(event["phase"]!.stringValue!) +\(offset)us"
        }
    }

    /// What the pipeline alone makes of the flick (as `flywheel replay` plays it): its events.
    static func flickEvents() throws -> [String] {
        let timeline = try InputTimeline.load(flick, hardware: Hands.root + "/hardware")
        let configuration = FlywheelConfiguration()
        let pipeline = Pipeline(core: DaemonCore(configuration: configuration, scrubDurationSeconds: 0))
        pipeline.play(Playback(
            items: timeline.items.map { ($0.timeNanoseconds, $0.item) }, endNanoseconds: timeline.endNanoseconds,
            device: timeline.device(path: flick, configuration: configuration), loops: false, start: 0))
        return normalise(try pipeline.runToEnd().map { try JSONParser.parse($0.bytesWithoutSeq) })
    }

    /// A client's messages up to the flick's last settling, normalised.
    static func events(of client: InProcessClient) throws -> [String] {
        var messages: [JSONValue] = []
        while let message = try client.next() {
            messages.append(message)
            if message["phase"]?.stringValue == "settled" { break }
        }
        return normalise(messages)
    }

    @Test("64 concurrent clients each receive every discrete event of the flick, in order, timed as the pipeline alone times them")
    func manyClients() throws {
        let daemon = try InProcessDaemon(["--simulate", Self.flick, "--hold-until-clients", "64", "--frames", "0"])
        defer { daemon.stop() }
        let clients = try (0..<64).map { _ in try daemon.connect() }
        let expected = try Self.flickEvents()
        #expect(expected.count > 10)
        for client in clients {
            #expect(try client.next()?["class"] == .string("hello"))
            #expect(try Self.events(of: client) == expected)
        }
    }

    @Test("a reload during a scrub ends the scrub it began")
    func reloadDuringScrub() throws {
        let path = try DaemonServingTests.write("{ controls: { mode: { initial: 'scrub' } } }")
        let daemon = try InProcessDaemon(["--config", path, "--simulate", Self.flick, "--hold-until-clients", "1", "--frames", "0", "--scrub-duration", "214"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.next(where: { $0["class"]?.stringValue == "scrub" && $0["phase"]?.stringValue == "began" }) != nil)
        let reloadedAt = daemon.clock.now
        daemon.daemon.reload()
        // The scrub's next phase other than `moved` ends it, at the reload's time (not the
        // flick's own end later): a second `began` first (the reload leaving the first gesture
        // open while the flick starts another) fails.
        let end = try client.next(where: { $0["class"]?.stringValue == "scrub" && $0["phase"]?.stringValue != "moved" })
        #expect(end?["phase"] == .string("committed") || end?["phase"] == .string("cancelled"), "\(String(describing: end))")
        let endNanoseconds = ((end?["time"]?.doubleValue ?? 0) * 1e9).rounded()
        #expect(abs(endNanoseconds - Double(reloadedAt)) < 1000, "ended at \(endNanoseconds) ns, reloaded at \(reloadedAt)")
        #expect(daemon.said.last?.hasPrefix("reloaded \(path)") == true, "\(daemon.said)")
    }

    @Test("a reload with a FIFO, /dev/zero or an empty file in the configuration's place keeps the running configuration; --max-clients stays")
    func reloadTruths() throws {
        let path = try DaemonServingTests.write("{ controls: { tempo: { bpm: 96 } }, clients: { max_clients: 100 } }")
        let daemon = try InProcessDaemon(["--config", path, "--frames", "0", "--max-clients", "1"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        for replacement in ["fifo", "zero", "empty"] {
            unlink(path)
            switch replacement {
            case "fifo": mkfifo(path, 0o600)
            case "zero": symlink("/dev/zero", path)
            default: try StripDaemonTests.write("", to: path)
            }
            let saidBefore = daemon.said.count
            daemon.daemon.reload()  // returns: a FIFO nobody writes does not hold the loop
            let state = try client.next(where: { $0["class"]?.stringValue == "state" })
            #expect(state?["tempo"]?["bpm"] == .int(96), "\(replacement)")
            #expect(daemon.said[saidBefore...].contains { $0.hasPrefix("kept the running configuration: ") }, "\(replacement): \(daemon.said)")
            #expect(try client.pong(), "\(replacement)")
        }
        unlink(path)
        try StripDaemonTests.write("{ controls: { tempo: { bpm: 96 } }, clients: { max_clients: 100 } }", to: path)
        daemon.daemon.reload()
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        // The command line's one client is still the limit after the reload.
        let second = try daemon.connect()
        #expect(try second.next()?["code"] == .string("too-many-clients"))
    }

    @Test("a reload with a missing group and a profile typo keeps the running configuration and says file, line and key")
    func reloadRefuses() throws {
        let path = try DaemonServingTests.write("{ controls: { tempo: { bpm: 96 } } }")
        let daemon = try InProcessDaemon(["--config", path, "--frames", "0"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        try StripDaemonTests.write(
            "{\n  controls: { tempo: { range: [40, 208], table: 'maelzel' } },\n  socket: { group: 'nogroupxyz' },\n  devices: [{ profile: 'powermat' }],\n}\n",
            to: path)
        daemon.daemon.reload()
        let state = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(state?["tempo"]?["table"] == .string("integer"))  // a reload would have made it "maelzel"
        #expect(state?["tempo"]?["bpm"] == .int(96))
        #expect(daemon.said.contains("kept the running configuration: \(path) line 3: key 'socket.group' names the group 'nogroupxyz', which does not exist on this system."), "\(daemon.said)")
        #expect(daemon.said.contains { $0.hasPrefix("kept the running configuration: \(path) line 4: key 'devices[0].profile' names no known device profile: 'powermat' (did you mean 'powermate'?); ") }, "\(daemon.said)")
        #expect(!daemon.said.contains { $0.hasPrefix("reloaded") })
    }

    @Test("a reload with 6,000 devices in the file is done, and a client is answered before and after it")
    func reloadManyDevices() throws {
        let entries = (0..<6000).map { "{ profile: 'powermate', path: '/dev/input/by-id/flywheel-test-\($0)' }" }
        let path = try DaemonServingTests.write("{ devices: [\n" + entries.joined(separator: ",\n") + "\n] }")
        let daemon = try InProcessDaemon(["--config", path, "--frames", "0", "--no-devices"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        #expect(try client.pong())
        daemon.daemon.reload()
        #expect(try client.next(where: { $0["class"] == .string("state") }) != nil)
        #expect(daemon.said.last?.hasPrefix("reloaded \(path)") == true, "\(daemon.said.suffix(2))")
        #expect(try client.pong())
    }

    @Test("started with devices[].acceleration: false, it says to write inertia: false, and serves")
    func renamedKeyWarned() throws {
        let config = try DaemonServingTests.write("{ devices: [\n{ profile: 'ec11', acceleration: false }] }\n")
        let daemon = try InProcessDaemon(["--config", config, "--no-devices"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.next()?["class"] == .string("hello"), "it serves")
        #expect(daemon.said.count == 1, "\(daemon.said)")
        #expect(daemon.said.first?.hasPrefix(
            "warning: \(config) line 2: key 'devices[0].acceleration' as true or false is the old name of 'inertia': write inertia: false, acceleration: \"off\"") == true)
    }
}
