import FlywheelCore
import Glibc
import Testing

/// `flywheel mpd` between a real flywheeld and a fake MPD player that keeps a small state (issue 33,
/// cases 3 and 7 and the MPD items of case 8): the daemon is brought in step with MPD after it
/// restarts, the volume cap is honoured both ways, MPD's own refusal is named, and
/// `MPD_HOST=password@host` logs in first.
@Suite("flywheel mpd keeps flywheeld and a fake MPD in step (issue 33)", .serialized, .timeLimit(.minutes(1)))
struct MPDStateFaultyPeerTests {
    static func scrub(_ state: JSONValue?) -> (position: Double, duration: Double)? {
        guard let position = state?["scrub"]?["position"]?.doubleValue, let duration = state?["scrub"]?["duration"]?.doubleValue else { return nil }
        return (position, duration)
    }

    static func volume(_ state: JSONValue?) -> Int? { state?["volume"]?["volume"]?.doubleValue.map { Int($0) } }

    static func bridge(_ socket: String, _ directory: String, mpd: String?, environment: [String] = []) throws -> Child {
        try Child(
            flywheel: ["mpd", "--socket", socket] + (mpd.map { ["--mpd", $0] } ?? []), stderrPath: directory + "/bridge.err",
            environment: environment)
    }

    @Test("case 3: after flywheeld restarts while MPD is paused, the new daemon gets MPD's duration, position and volume without any change on MPD's side")
    func resynchroniseAfterDaemonRestart() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(.player, player: .init(volume: 60, elapsed: 42.5, duration: 180, state: "pause"))
        defer { fake.stop() }
        let socket = directory + "/flywheel.sock"
        var daemon = try DaemonProcess([], socketPath: socket)
        let bridge = try Self.bridge(socket, directory, mpd: fake.address)
        defer { bridge.forceStop() }

        // The first daemon is brought in step when the bridge starts.
        #expect(FaultyPeer.eventually { Self.scrub(FaultyPeer.state(socket))?.duration == 180 && Self.volume(FaultyPeer.state(socket)) == 60 },
                "\(FaultyPeer.state(socket)?.encoded() ?? "no state")")

        _ = daemon.stop()
        daemon = try DaemonProcess([], socketPath: socket)
        defer { _ = daemon.stop() }
        // The new daemon starts at volume 30 and duration 0; MPD does nothing, and the bridge must
        // not wait in `idle` for it to.
        func inStep() -> Bool {
            let state = FaultyPeer.state(socket)
            guard let scrub = Self.scrub(state) else { return false }
            return scrub.duration == 180 && abs(scrub.position - 42.5) <= 1 && Self.volume(state) == 60
        }
        #expect(FaultyPeer.eventually { inStep() }, "the restarted daemon: \(FaultyPeer.state(socket)?.encoded() ?? "no state"); MPD: duration 180, at 42.5 s, volume 60; \(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(fake.record.setvols.isEmpty, "MPD's volume was changed: \(fake.record.setvols)")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd")
    }

    @Test("case 7: with a volume cap of 60 and MPD at 80, the bridge brings MPD within the cap, and a client's later set to 40 reaches MPD as setvol 40")
    func volumeCap() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(.player, player: .init(volume: 80))
        defer { fake.stop() }
        let config = directory + "/flywheel.json5"
        RepositoryPaths.write("{ controls: { volume: { cap: 60 } } }\n", to: config)
        let daemon = try DaemonProcess(["--config", config])
        defer { _ = daemon.stop() }
        let bridge = try Self.bridge(daemon.socketPath, directory, mpd: fake.address)
        defer { bridge.forceStop() }

        #expect(FaultyPeer.eventually { fake.connectionCount >= 1 && (fake.state.volume ?? 100) <= 60 },
                "MPD at \(fake.state.volume ?? -1) with the cap at 60; setvol \(fake.record.setvols); \(FaultyPeer.text(directory + "/bridge.err"))")
        let daemonVolume = Self.volume(FaultyPeer.state(daemon.socketPath)) ?? -1
        #expect(daemonVolume <= 60, "flywheeld at \(daemonVolume)")

        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        let answer = FaultyPeer.set(client, #"{"cmd":"set","control":"volume","volume":40}"#)
        #expect(Self.volume(answer) == 40, "\(answer?.encoded() ?? "no answer")")
        #expect(FaultyPeer.eventually { fake.record.setvols.last == 40 && fake.state.volume == 40 },
                "MPD at \(fake.state.volume ?? -1); setvol \(fake.record.setvols); \(FaultyPeer.text(directory + "/bridge.err"))")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd")
    }

    @Test("case 7, the order reversed: MPD's status before flywheeld's state (the daemon stopped a moment) still brings MPD within the cap")
    func volumeCapBeforeState() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(.player, player: .init(volume: 80))
        defer { fake.stop() }
        let config = directory + "/flywheel.json5"
        RepositoryPaths.write("{ controls: { volume: { cap: 60 } } }\n", to: config)
        let daemon = try DaemonProcess(["--config", config])
        defer { _ = daemon.stop() }
        // The daemon stopped: the bridge's connection waits in its backlog and its `get` unanswered,
        // while MPD answers at once. (Under emulation this order came by itself, and MPD stayed at 80:
        // the read-back of 80 was refused by the cap and then taken as agreed.)
        kill(daemon.pid, SIGSTOP)
        let bridge = try Self.bridge(daemon.socketPath, directory, mpd: fake.address)
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { fake.record.commands.joined().contains { $0.hasPrefix("status") } }, "the bridge asked MPD's status")
        kill(daemon.pid, SIGCONT)
        #expect(FaultyPeer.eventually { (fake.state.volume ?? 100) <= 60 },
                "MPD at \(fake.state.volume ?? -1) with the cap at 60; setvol \(fake.record.setvols); \(FaultyPeer.text(directory + "/bridge.err"))")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd")
    }

    @Test("case 8: a setvol MPD refuses is reported with MPD's own ACK, not as 'has no mixer'")
    func namesMPDsAck() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let ack = "ACK [52@0] {setvol} problems setting volume"
        let fake = try FakeMPD(.player, player: .init(volume: 50, setvolAck: ack))
        defer { fake.stop() }
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let bridge = try Self.bridge(daemon.socketPath, directory, mpd: fake.address)
        defer { bridge.forceStop() }

        // MPD's volume (50, it has a mixer) reaches flywheeld first.
        #expect(FaultyPeer.eventually { Self.volume(FaultyPeer.state(daemon.socketPath)) == 50 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        FaultyPeer.set(client, #"{"cmd":"set","control":"volume","volume":40}"#)
        #expect(FaultyPeer.eventually { fake.record.setvols.contains(40) }, "setvol \(fake.record.setvols)")
        #expect(FaultyPeer.eventually(seconds: 3) { FaultyPeer.text(directory + "/bridge.err").contains("problems setting volume") },
                "\(FaultyPeer.text(directory + "/bridge.err"))")
        let log = FaultyPeer.text(directory + "/bridge.err")
        #expect(!log.contains("has no mixer"), "\(log)")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd")
    }

    @Test("case 8: MPD_HOST=password@host (with MPD_PORT) logs in with MPD's password command before anything else")
    func passwordFromMPDHost() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(.player, player: .init(volume: 50, password: "secret"))
        defer { fake.stop() }
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let bridge = try Self.bridge(
            daemon.socketPath, directory, mpd: nil, environment: ["MPD_HOST=secret@127.0.0.1", "MPD_PORT=\(fake.port)"])
        defer { bridge.forceStop() }

        #expect(FaultyPeer.eventually { fake.allCommands.contains("status") && Self.scrub(FaultyPeer.state(daemon.socketPath))?.duration == 180 },
                "MPD got \(fake.record.commands); \(FaultyPeer.text(directory + "/bridge.err"))")
        for commands in fake.record.commands where !commands.isEmpty {
            #expect(commands.first == "password secret", "a connection began with \(commands.prefix(3))")
        }
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd")
    }
}
