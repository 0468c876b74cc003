import FlywheelCore
import Glibc
import Testing

/// flywheeld as a real child process, with real Unix-socket clients: what only the binary shows —
/// its real-time playback against the virtual-time replay, signals, the socket file, socket
/// activation, systemd's watchdog, its descriptor limit. (The server's answers to clients are in
/// FlywheelDaemonTests, in process: ClientLinesTests, ClientPaceTests, ScenarioClientsTests.)
@Suite("flywheeld end to end", .serialized)
struct DaemonEndToEndTests {
    static let flick = RepositoryPaths.path("hardware/scenarios/flick.sim")

    /// What `flywheel replay` says the scenario does, as (class, bpm, value, phase, time from the first event).
    static func expected(_ scenario: String) -> [String] {
        let lines = ToolRun.run(["replay", scenario]).out.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
        return normalise(lines)
    }

    static func normalise(_ messages: [JSONValue]) -> [String] {
        let events = messages.filter { ["tempo", "scrub"].contains($0["class"]?.stringValue ?? "") }
        guard let first = events.first?["time"]?.doubleValue else { return [] }
        return events.map { event in
            let offset = Int(((event["time"]!.doubleValue! - first) * 1e6).rounded())  // microseconds
            return "\(event["class"]!.stringValue!) \(event["bpm"]?.encoded() ?? "") \(event["value"]?.encoded() ?? "") \(event["phase"]!.stringValue!) +\(offset)us"
        }
    }

    /// Reads a client's messages until the tempo settles for the last time in the flick scenario.
    static func readFlick(_ client: TestClient) -> [JSONValue] {
        var messages: [JSONValue] = []
        while let message = client.next() {
            messages.append(message)
            if message["phase"]?.stringValue == "settled" { break }
        }
        return messages
    }

    @Test("a client sees exactly the scenario's events, timed as in the virtual-time replay")
    func exactSequence() throws {
        let daemon = try DaemonProcess(["--simulate", Self.flick, "--hold-until-clients", "1", "--frames", "0"])
        defer { _ = daemon.stop() }
        let client = try TestClient(daemon.socketPath)
        let hello = try #require(client.next())
        #expect(hello["class"] == .string("hello") && hello["protocol"] == .int(1))
        let added = try #require(client.next())
        #expect(added["class"] == .string("device") && added["action"] == .string("added") && added["kind"] == .string("simulated"))
        let messages = [added] + Self.readFlick(client)
        let expected = Self.expected(Self.flick)
        #expect(expected.count > 10)
        #expect(Self.normalise(messages) == expected)
        // seq counts every message to this client, without gaps (no frames were coalesced).
        let seqs = ([hello] + messages).compactMap { $0["seq"] }.map { Int($0.doubleValue!) }
        #expect(seqs == Array(1...seqs.count))
    }

    @Test("SIGTERM: STOPPING=1, exit 0, socket file removed; SIGHUP keeps clients")
    func signals() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        let client = try TestClient(daemon.socketPath)
        _ = client.next()
        daemon.signal(SIGHUP)
        #expect(client.next()?["class"] == .string("state"))  // the reload's state
        client.send("{\"cmd\":\"ping\"}")
        #expect(client.next()?["class"] == .string("pong"))
        daemon.signal(SIGTERM)
        #expect(daemon.receiveNotification() == "STOPPING=1")
        #expect(daemon.wait() == 0)
        #expect(access(daemon.socketPath, F_OK) != 0)
        #expect(client.next() == nil)
        daemon.cleanup()
    }

    @Test("a stale socket file is replaced; a live daemon and a symlink are refused with a sentence")
    func socketPath() throws {
        let first = try DaemonProcess(["--frames", "0"])
        defer { _ = first.stop() }
        let second = try DaemonProcess(["--frames", "0"], socketPath: first.socketPath, waitForReady: false)
        #expect(second.wait() == 1)
        // The lock beside the socket decides (not a connect that another user's EACCES could fool).
        #expect(second.readStderr() == "flywheeld: another flywheeld owns \(first.socketPath) (it holds the lock \(first.socketPath).lock).\n")
        second.cleanup()

        // A stale socket: bound, then abandoned.
        let stalePath = first.directory + "/stale.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = withUnixAddress(stalePath) { bind(fd, $0, $1) }
        close(fd)
        let stale = try DaemonProcess(["--frames", "0"], socketPath: stalePath)
        #expect(try TestClient(stalePath).next()?["class"] == .string("hello"))
        _ = stale.stop()

        let linkPath = first.directory + "/link.sock"
        symlink("/tmp/elsewhere.sock", linkPath)
        defer { unlink(linkPath) }
        let linked = try DaemonProcess(["--frames", "0"], socketPath: linkPath, waitForReady: false)
        #expect(linked.wait() == 1)
        #expect(linked.readStderr().contains("is a symbolic link; flywheeld does not follow links"))
        close(linked.notifyFD)
    }

    @Test("socket activation: the daemon serves the listening socket passed as descriptor 3")
    func activation() throws {
        var template = Array("/tmp/flywheel-activation-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let path = directory + "/activated.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = withUnixAddress(path) { bind(listener, $0, $1) }
        listen(listener, 16)
        // --socket and the file's socket settings name a path and a mode the daemon must NOT use:
        // activation takes precedence, and the daemon says so, naming the option and the file's lines.
        let config = DaemonConfigurationTests.write("{\n  socket: {\n    path: '\(directory)/configured.sock',\n    mode: '0600',\n  },\n}\n")
        defer { unlink(config) }
        let daemon = try DaemonProcess(
            ["--frames", "0", "--config", config], socketPath: directory + "/unused.sock",
            shellPrefix: "export LISTEN_PID=$$ LISTEN_FDS=1;", passListener: listener)
        close(listener)
        let client = try TestClient(path)
        #expect(client.next()?["class"] == .string("hello"))
        #expect(access(directory + "/unused.sock", F_OK) != 0)
        #expect(access(directory + "/configured.sock", F_OK) != 0)
        daemon.signal(SIGTERM)
        _ = daemon.wait()
        let said = daemon.readStderr()
        daemon.cleanup()
        #expect(said.contains("--socket \(directory)/unused.sock is not used: systemd passed the socket"), "\(said)")
        #expect(said.contains("\(config) line 3: key 'socket.path' is not used"), "\(said)")
        #expect(said.contains("\(config) line 4: key 'socket.mode' is not used"), "\(said)")
        #expect(!said.contains("socket.group"), "\(said)")
        unlink(path)
        rmdir(directory)
    }
}

@Suite("flywheeld and systemd's watchdog")
struct WatchdogTests {
    @Test("with WATCHDOG_USEC set, WATCHDOG=1 arrives after READY=1")
    func watchdog() throws {
        let daemon = try DaemonProcess(["--frames", "0"], extraEnvironment: ["WATCHDOG_USEC=200000"])
        defer { _ = daemon.stop() }
        #expect(daemon.receiveNotification() == "WATCHDOG=1")
        #expect(daemon.receiveNotification() == "WATCHDOG=1")
    }
}

@Suite("flywheeld at its limits")
struct DaemonLimitTests {
    @Test("out of file descriptors: new clients are refused with an error, existing ones unaffected, no spinning")
    func descriptorsExhausted() throws {
        // The daemon inherits our descriptors that lack close-on-exec; each may take a slot below its
        // limit, so the limit leaves about 30 slots for clients whatever it inherits.
        let limit = Self.inheritedDescriptors() + 40
        let daemon = try DaemonProcess(["--frames", "0"], shellPrefix: "ulimit -n \(limit);")
        defer { _ = daemon.stop() }
        var served: [TestClient] = []
        var refused = 0
        for _ in 0..<80 {
            let client = try TestClient(daemon.socketPath, timeoutSeconds: 10)
            if let first = client.next() {
                if first["class"] == .string("hello") { served.append(client) }
                else if first["code"] == .string("too-many-clients") { refused += 1 }
            }
        }
        #expect(served.count >= 1, "served \(served.count), refused \(refused)")
        #expect(refused >= 5, "served \(served.count), refused \(refused)")
        #expect(served.count + refused == 80)
        for client in served {
            client.send("{\"cmd\":\"ping\"}")
            #expect(client.next()?["class"] == .string("pong"))
        }
        // The daemon is idle, not spinning on a listener it cannot serve.
        var stat = try #require(RepositoryPaths.read("/proc/\(daemon.pid)/stat"))
        let before = Self.cpuTicks(stat)
        served[0].send("{\"cmd\":\"ping\"}")
        _ = served[0].next()
        stat = try #require(RepositoryPaths.read("/proc/\(daemon.pid)/stat"))
        #expect(Self.cpuTicks(stat) - before < 50)
    }

    /// How many descriptors of this process lack FD_CLOEXEC (what a child inherits).
    static func inheritedDescriptors() -> Int {
        (3..<4096 as Range<Int32>).filter { fd in
            let flags = fcntl(fd, F_GETFD)
            return flags >= 0 && flags & FD_CLOEXEC == 0
        }.count
    }

    static func cpuTicks(_ stat: String) -> Int {
        let fields = stat.split(separator: ")").last!.split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }
}

@Suite("flywheeld configuration", .serialized)
struct DaemonConfigurationTests {
    static func write(_ text: String) -> String {
        var template = Array("/tmp/flywheel-config-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let path = directory + "/flywheel.json5"
        RepositoryPaths.write(text, to: path)
        return path
    }

    @Test("--check-config accepts a good file and names file, line and key in a bad one")
    func check() throws {
        let good = Self.write("// kitchen\n{ controls: { tempo: { bpm: 96 } } }\n")
        let ok = ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", good, "--check-config"])
        #expect(ok.status == 0 && ok.out == "\(good): the configuration is valid.\n")
        let bad = Self.write("{\n  controls: {\n    tempo: { bpm: 900 },\n  },\n}\n")
        let refused = ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", bad, "--check-config"])
        #expect(refused.status == 1)
        #expect(refused.err == "flywheeld: \(bad) line 3: key 'controls.tempo.bpm' must be from 20 to 300, got 900.\n")
        let missing = ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", "/nonexistent/flywheel.json5", "--check-config"])
        #expect(missing.status == 1 && missing.err.contains("cannot open /nonexistent/flywheel.json5: No such file or directory (ENOENT)."))
    }
}
