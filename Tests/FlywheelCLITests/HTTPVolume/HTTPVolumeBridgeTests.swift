@testable import FlywheelCLI
import FlywheelCore
import FlywheelIO
import Glibc
import Testing

/// `flywheel volumio` and `flywheel moode` between a real flywheeld and a server speaking each
/// player's documented volume API (fake_player.py beside this file, on Python's own HTTP/1.1
/// server; it cites the documentation): neither player is a Debian package, and there is no
/// network here to reach a real one. Then players that misbehave.
@Suite("flywheel volumio and moode against their documented HTTP APIs", .serialized, .timeLimit(.minutes(2)))
struct HTTPVolumeBridgeTests {
    static let python = "/usr/bin/python3"
    static var available: Bool { access(python, X_OK) == 0 }

    /// The fake `kind` player on 127.0.0.1 (on `port`, else one of its choosing), answering after
    /// `delay` seconds; its port, its requests' log.
    static func player(_ kind: String, _ directory: String, delay: Double = 0, port: Int? = nil) throws -> (Child, port: Int, log: String) {
        let portFile = directory + "/\(kind).port"
        unlink(portFile)
        let log = directory + "/\(kind).requests"
        let script = RepositoryPaths.path("Tests/FlywheelCLITests/HTTPVolume/fake_player.py")
        let child = try Child(
            [python, script, kind, portFile, log, String(delay)] + (port.map { [String($0)] } ?? []), stderrPath: directory + "/\(kind).err")
        #expect(FaultyPeer.eventually { RepositoryPaths.read(portFile) != nil }, "the fake player did not start: \(FaultyPeer.text(directory + "/\(kind).err"))")
        return (child, Int(RepositoryPaths.read(portFile) ?? "") ?? 0, log)
    }

    /// A GET as the player's own page would make it (Python's urllib).
    static func get(_ port: Int, _ target: String) {
        let script = "import urllib.request; urllib.request.urlopen('http://127.0.0.1:\(port)\(target)').read()"
        #expect(ChildProcess.run(python, ["-c", script]).status == 0)
    }

    /// The fake player's mute (its /test/state, not logged), or nil when it does not answer.
    static func muted(_ port: Int) -> Bool? {
        let script = "import urllib.request, json; print(json.load(urllib.request.urlopen('http://127.0.0.1:\(port)/test/state'))['mute'])"
        let run = ChildProcess.run(python, ["-c", script])
        return run.status == 0 ? run.out.trimmingCharacters() == "True" : nil
    }

    static func volume(_ socket: String) -> Int? { FaultyPeer.state(socket)?["volume"]?["volume"]?.doubleValue.map { Int($0) } }

    /// A GET of the fake player's own `/test/` requests (not logged), made here rather than by a
    /// Python child so that the test keeps up with flywheeld's simulated buttons: the answer, or nil.
    static func ask(_ port: Int, _ target: String) -> JSONValue? {
        guard let exchange = try? HTTPExchange(get: target, from: "127.0.0.1:\(port)", at: MonotonicClock.now()) else { return nil }
        while true {
            guard var entry = exchange.pollRequest else { return nil }
            _ = poll(&entry, 1, 100)
            if let result = exchange.ready(revents: entry.revents) ?? exchange.expire(at: MonotonicClock.now()) {
                guard case .success(let response) = result, response.status == 200 else { return nil }
                return try? JSONParser.parse(response.body)
            }
        }
    }

    /// flywheeld with an EC11 as the volume knob whose button (BTN_0) is tapped twice, 1.5 s apart
    /// (MPD/mpd-two-taps.sim), once a watcher and one bridge are connected; the watcher.
    static func tappingDaemon(_ directory: String) throws -> (DaemonProcess, TestClient) {
        let daemon = try knobDaemon(directory, scenario: RepositoryPaths.path("Tests/FlywheelCLITests/MPD/mpd-two-taps.sim"), clients: 2)
        return (daemon, try TestClient(daemon.socketPath))
    }

    /// flywheeld with an EC11 as the volume knob, driven by `scenario` once `clients` are connected.
    static func knobDaemon(_ directory: String, scenario: String, clients: Int) throws -> DaemonProcess {
        let config = directory + "/flywheel.json5"
        RepositoryPaths.write("{ devices: [ { profile: 'ec11', control: 'volume' } ] }", to: config)
        return try DaemonProcess(["--config", config, "--simulate", scenario, "--hold-until-clients", String(clients), "--frames", "0"])
    }

    static func isTap(_ message: JSONValue) -> Bool {
        message["class"]?.stringValue == "button" && message["action"]?.stringValue == "tap" && message["code"]?.doubleValue == 256
    }

    @Test("the mute button through flywheeld: Volumio is sent volume=mute on the first tap and volume=unmute on the second, moOde set_volume -mute (its toggle) on each; the player's mute follows",
          .enabled(if: available || HostTools.required, "python3 is not installed (the fake players run on it)"), arguments: ["volumio", "moode"])
    func muteButton(_ kind: String) throws {
        let directory = FaultyPeer.temporaryDirectory()
        let (player, port, log) = try Self.player(kind, directory)
        defer { player.forceStop() }
        let (daemon, watcher) = try Self.tappingDaemon(directory)
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: [kind, "--socket", daemon.socketPath, "--host", "127.0.0.1:\(port)", "--mute-button", "BTN_0"],
                               stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }
        let requests = kind == "volumio"
            ? ["/api/v1/commands/?cmd=volume&volume=mute", "/api/v1/commands/?cmd=volume&volume=unmute"]
            : ["/command/?cmd=set_volume%20-mute", "/command/?cmd=set_volume%20-mute"]
        let mutes = { FaultyPeer.lines(log).filter { $0.contains("mute") } }

        #expect(watcher.next(where: Self.isTap) != nil, "no tap: \(FaultyPeer.text(directory + "/bridge.err"))")
        if !FaultyPeer.emulated {
            // (Under qemu-user the second tap, 1.5 s on, can come before the first is sent: the
            // requests' order and the end state are checked there.)
            #expect(FaultyPeer.eventually { Self.muted(port) == true }, "first tap: \(mutes()) \(FaultyPeer.text(directory + "/bridge.err"))")
            #expect(mutes() == Array(requests.prefix(1)))
        }
        #expect(watcher.next(where: Self.isTap) != nil)
        #expect(FaultyPeer.eventually { mutes() == requests && Self.muted(port) == false }, "second tap: \(mutes())")
        #expect(mutes() == requests)
        // The volume is untouched by the mute, on both sides.
        #expect(Self.volume(daemon.socketPath) == 50)
        FaultyPeer.expectStopsPromptly(bridge, "flywheel \(kind)")
    }

    @Test("Volumio: its volume read into flywheeld at start; flywheeld's volume sent through cmd=volume, a fast turn coalesced to its latest; a change made in Volumio comes back when flywheeld restarts; Volumio restarting is retried",
          .enabled(if: available || HostTools.required, "python3 is not installed (the fake Volumio runs on it)"))
    func volumio() throws {
        try endToEnd("volumio", setPrefix: "/api/v1/commands/?cmd=volume&volume=", read: "/api/v1/getState")
    }

    @Test("moOde: the same through /command/?cmd=set_volume N and get_volume, its answers chunked as nginx sends them",
          .enabled(if: available || HostTools.required, "python3 is not installed (the fake moOde runs on it)"))
    func moode() throws {
        try endToEnd("moode", setPrefix: "/command/?cmd=set_volume%20", read: "/command/?cmd=get_volume")
    }

    func endToEnd(_ kind: String, setPrefix: String, read: String) throws {
        let directory = FaultyPeer.temporaryDirectory()
        var (player, port, log) = try Self.player(kind, directory, delay: 0.05)
        defer { player.forceStop() }
        var daemon = try DaemonProcess([])
        let socket = daemon.socketPath
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: [kind, "--socket", socket, "--host", "127.0.0.1:\(port)"], stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }

        // The player's volume (50) comes to flywheeld (30 by default).
        #expect(FaultyPeer.eventually { Self.volume(socket) == 50 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(FaultyPeer.lines(log).first == read)

        // A fast turn: twenty volumes within a few milliseconds; the player answers each request
        // after 50 ms, so the bridge sends the first and then the latest, not twenty.
        let client = try TestClient(socket, timeoutSeconds: 5)
        let before = FaultyPeer.lines(log).count
        for volume in 21...40 { client.send(#"{"cmd":"set","control":"volume","volume":\#(volume)}"#) }
        #expect(FaultyPeer.eventually { FaultyPeer.lines(log).last(where: { $0.hasPrefix(setPrefix) }) == setPrefix + "40" }, "\(FaultyPeer.lines(log))")
        let sets = FaultyPeer.lines(log).dropFirst(before).filter { $0.hasPrefix(setPrefix) }
        #expect(sets.count <= 4, "a fast turn sent \(sets.count) requests: \(sets)")
        #expect(Self.volume(socket) == 40, "a read-back during the turn moved flywheeld away from the knob")

        // A change made in the player's own page (to a volume on flywheeld's 2-step grid) comes back with the next read: here flywheeld restarting.
        Self.get(port, "/test/ui?volume=78")
        _ = daemon.stop()
        daemon = try DaemonProcess([], socketPath: socket)
        #expect(FaultyPeer.eventually(seconds: 15) { Self.volume(socket) == 78 }, "\(FaultyPeer.text(directory + "/bridge.err"))")

        // The player stops; a turn meanwhile waits, retried with backoff, and reaches it when it is back.
        player.stop()
        let again = try TestClient(socket, timeoutSeconds: 5)
        FaultyPeer.set(again, #"{"cmd":"set","control":"volume","volume":12}"#)
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("retrying in") })
        (player, port, log) = try Self.player(kind, directory, port: port)
        #expect(FaultyPeer.eventually(seconds: 15) { FaultyPeer.lines(log).contains(setPrefix + "12") }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(FaultyPeer.text(directory + "/bridge.err").contains("connected to \(kind == "moode" ? "moOde" : "Volumio") at 127.0.0.1:\(port)."))

        // At rest, nothing is asked: after Volumio's command its state is read, once; moOde's answer carries its volume.
        #expect(FaultyPeer.eventually { FaultyPeer.lines(log).last == (kind == "volumio" ? read : setPrefix + "12") }, "\(FaultyPeer.lines(log))")
        let resting = FaultyPeer.lines(log).count
        let usage = FaultyPeer.usage(of: bridge.pid, over: 1)
        #expect(FaultyPeer.lines(log).count == resting, "requests at rest: \(FaultyPeer.lines(log).dropFirst(resting))")
        FaultyPeer.expectFrugal(usage, "flywheel \(kind) at rest")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel \(kind)")
    }

    @Test("a player that never answers, one that sends an endless chunked body, and one that is not the player: SIGTERM ends the bridge promptly, its memory and CPU bounded, each said")
    func faultyPlayers() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }

        // Silent: the connection is made (in the listener's backlog), never answered.
        let (silent, silentPort) = MQTTBridgeTests.listener()
        defer { close(silent) }
        let first = try Child(flywheel: ["volumio", "--socket", daemon.socketPath, "--host", "127.0.0.1:\(silentPort)"], stderrPath: directory + "/silent.err")
        defer { first.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/silent.err").contains("connected to flywheeld") })
        FaultyPeer.expectFrugal(FaultyPeer.usage(of: first.pid, over: 1), "flywheel volumio against a silent player")
        FaultyPeer.expectStopsPromptly(first, "flywheel volumio (silent player)")

        // Flooding: a chunked body without end.
        let (flood, floodPort) = MQTTBridgeTests.listener()
        defer { close(flood) }
        SlowMPDProxy.thread {
            for _ in 0..<3 {
                let peer = accept(flood, nil, nil)
                guard peer >= 0 else { return }
                var head = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                _ = send(peer, &head, head.count, Int32(MSG_NOSIGNAL))
                var chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x41, count: 0x4000) + Array("\r\n".utf8)
                for _ in 0..<2000 where send(peer, &chunk, chunk.count, Int32(MSG_NOSIGNAL)) > 0 {}
                close(peer)
            }
        }
        let second = try Child(flywheel: ["moode", "--socket", daemon.socketPath, "--host", "127.0.0.1:\(floodPort)"], stderrPath: directory + "/flood.err")
        defer { second.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/flood.err").contains("body passed 64 KiB") }, "\(FaultyPeer.text(directory + "/flood.err"))")
        FaultyPeer.expectFrugal(FaultyPeer.usage(of: second.pid, over: 1), "flywheel moode against an endless body")
        FaultyPeer.expectStopsPromptly(second, "flywheel moode (endless body)")

        // Not the player: a web server answering 404.
        let (other, otherPort) = MQTTBridgeTests.listener()
        defer { close(other) }
        SlowMPDProxy.thread {
            let peer = accept(other, nil, nil)
            guard peer >= 0 else { return }
            var answer = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)
            _ = send(peer, &answer, answer.count, Int32(MSG_NOSIGNAL))
            close(peer)
        }
        let third = try Child(flywheel: ["volumio", "--socket", daemon.socketPath, "--host", "127.0.0.1:\(otherPort)"], stderrPath: directory + "/other.err")
        defer { third.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/other.err").contains("it answered status 404 to GET /api/v1/getState; is it Volumio?") }, "\(FaultyPeer.text(directory + "/other.err"))")
        FaultyPeer.expectStopsPromptly(third, "flywheel volumio (not Volumio)")
    }

    @Test("the answers each API documents are read; the requests are the documented ones")
    func platformAnswers() {
        let volumio = HTTPVolumePlatform.volumio, moode = HTTPVolumePlatform.moode
        #expect(volumio.answer(Array(#"{"status":"play","volume":80,"mute":false}"#.utf8)) == .volume(80, muted: false))
        #expect(volumio.answer(Array(#"{"time":1,"response":"volume Success"}"#.utf8)) == .accepted)
        #expect(moode.answer(Array(#"{"volume":"42","muted":"yes"}"#.utf8)) == .volume(42, muted: true))
        #expect(moode.answer(Array(#"{"alert":"Volume cannot be changed while a renderer is active"}"#.utf8)) == .refused("Volume cannot be changed while a renderer is active"))
        #expect(moode.answer(Array("<html>".utf8)) == nil)
        #expect(volumio.setTarget(35) == "/api/v1/commands/?cmd=volume&volume=35" && volumio.muteTarget(muted: true) == "/api/v1/commands/?cmd=volume&volume=unmute")
        #expect(moode.setTarget(35) == "/command/?cmd=set_volume%2035" && moode.muteTarget(muted: false) == "/command/?cmd=set_volume%20-mute")
    }

    @Test("a mute tap while flywheeld leaves the bridge's sets unread: the player's volume read after it (37, its page having moved it from 33) waits for the first read-back's echo and then goes; the player keeps 37, flywheeld ends at 36 (37 on its 2-step grid), and the player's volume is never set",
          .enabled(if: available || HostTools.required, "python3 is not installed (the fake players run on it)"), arguments: ["volumio", "moode"])
    func tapWhileFlywheeldIsBusy(_ kind: String) throws {
        let directory = FaultyPeer.temporaryDirectory()
        let (player, port, log) = try Self.player(kind, directory)
        defer { player.forceStop() }
        let read = kind == "volumio" ? "/api/v1/getState" : "/command/?cmd=get_volume"
        let setPrefix = kind == "volumio" ? "/api/v1/commands/?cmd=volume&volume=" : "/command/?cmd=set_volume%20"
        let requests = { FaultyPeer.lines(log) }
        let mutes = { requests().filter { $0.contains("mute") }.count }
        let sets = { requests().filter { $0.hasPrefix(setPrefix) && !$0.contains("mute") } }
        let release: () -> Void = { #expect(Self.ask(port, "/test/release")?["released"] == .bool(true), "nothing held: \(requests())") }
        #expect(Self.ask(port, "/test/hold") != nil)

        // flywheeld with an EC11 whose button is tapped three times, `gap` apart, from when the bridge
        // connects (each request held for the next tap waits less than the bridge's 5 s for an answer).
        let gap = FaultyPeer.emulated ? 3500 : 2500
        let tap = "press\nhold 80ms\nrelease\n"
        RepositoryPaths.write("device ec11\nseed 12\nhold 1500ms\n\(tap)hold \(gap)ms\n\(tap)hold \(gap)ms\n\(tap)hold 2s\n", to: directory + "/taps.sim")
        let daemon = try Self.knobDaemon(directory, scenario: directory + "/taps.sim", clients: 1)
        defer { _ = daemon.stop() }
        let relay = try BusyDaemonRelay(path: directory + "/relay.sock", daemonPath: daemon.socketPath)
        defer { relay.stop() }
        relay.hold()
        let bridge = try Child(flywheel: [kind, "--socket", relay.path, "--host", "127.0.0.1:\(port)", "--mute-button", "BTN_0"],
                               stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }

        // flywheeld's state came: the player's volume is read, and the read waits in the player. The first tap comes meanwhile.
        #expect(FaultyPeer.eventually { requests() == [read] }, "\(requests()) \(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(FaultyPeer.eventually { relay.taps == 1 })
        // The player's page moves it to 33; the read answers 33, which goes to flywheeld (and waits there), then the tap's mute goes.
        #expect(Self.ask(port, "/test/ui?volume=33") != nil)
        release()
        #expect(FaultyPeer.eventually { relay.sets == [33] && mutes() == 1 }, "\(relay.sets) \(requests())")
        // The page moves it to 37; the player's volume is read again (Volumio: after the mute; moOde: the mute's answer).
        #expect(Self.ask(port, "/test/ui?volume=37") != nil)
        if kind == "volumio" {
            release()
            #expect(FaultyPeer.eventually { requests().last == read }, "\(requests())")
        }
        #expect(relay.taps == 1, "the second tap came before the request it should come during: the test fell behind")
        // The second tap comes while that waits; it is answered (37), and the second tap's mute follows: the bridge has done with 37.
        #expect(FaultyPeer.eventually { relay.taps == 2 })
        release()
        #expect(FaultyPeer.eventually { mutes() == 2 }, "\(requests())")
        #expect(relay.sets == [33], "a read-back sent to flywheeld before the first one's echo: \(relay.sets)")

        // flywheeld comes round to what waited, and the player answers at once.
        #expect(Self.ask(port, "/test/open") != nil)
        #expect(relay.release(), "an echo did not come: \(relay.echoed)")
        #expect(FaultyPeer.eventually { Self.volume(daemon.socketPath) == 36 && relay.echoed.last == 36 }, "\(relay.sets) \(relay.echoed) \(requests())")
        #expect(relay.taps == 2, "the third tap came before the echoes: the test fell behind")
        // The third tap's mute: whatever the echoes made the bridge send the player went before it.
        #expect(FaultyPeer.eventually { mutes() == 3 }, "\(requests())")
        #expect(sets() == [], "the bridge set the player's volume: \(requests())")
        #expect(Self.ask(port, "/test/state")?["volume"]?.doubleValue == 37)
        #expect(Self.volume(daemon.socketPath) == 36)
        #expect(relay.sets == [33, 37])
        print("flywheel \(kind): a mute tap while flywheeld was busy; read-backs \(relay.sets), echoes \(relay.echoed); requests \(requests())")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel \(kind)")
    }
}
