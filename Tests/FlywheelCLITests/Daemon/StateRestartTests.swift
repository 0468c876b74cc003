import FlywheelCore
import Glibc
import Testing

/// flywheeld's state across real restarts (issue 45): a clean stop and `kill -9` restore every
/// piece of state, and a thousand `kill -9` during bursts of sets — half of them within 15 ms of
/// a write, where a torn file would show — each leave a file that is one flywheeld held, from
/// which it starts. (The state file's logic, in virtual time: StateKeeperTests.)
@Suite("flywheeld's state across restarts and kill -9")
struct StateRestartTests {
    /// A directory for the state and a configuration with three modes and restore_max 80.
    static func setUp() -> (directory: String, config: String) {
        var template = Array("/tmp/flywheel-restart-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        RepositoryPaths.write("{ controls: { mode: { segments: ['tempo', 'scrub', 'volume'] }, volume: { restore_max: 80, step: 1 } } }", to: directory + "/flywheel.json5")
        return (directory, directory + "/flywheel.json5")
    }

    static func tearDown(_ directory: String) {
        for name in RepositoryPaths.list(directory) { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    static func start(_ directory: String, _ config: String) throws -> (DaemonProcess, TestClient) {
        let daemon = try DaemonProcess(["--config", config, "--no-devices", "--quiet", "--frames", "0", "--state", directory + "/state"])
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 20)
        _ = client.next()  // hello
        return (daemon, client)
    }

    /// What a `state` message says of the kept state: the tempo, the volume, the mode, the range and table.
    static func kept(_ state: JSONValue?) -> String {
        guard let state else { return "(no state)" }
        return ["bpm", "range", "table"].map { state["tempo"]?[$0]?.encoded() ?? "-" }.joined(separator: " ")
            + " volume \(state["volume"]?["volume"]?.encoded() ?? "-") mode \(state["mode"]?["active"]?.encoded() ?? "-")"
    }

    static func command(_ client: TestClient, _ line: String) -> JSONValue? {
        client.send(line)
        return client.next(where: { $0["class"]?.stringValue == "state" || $0["class"]?.stringValue == "error" })
    }

    /// Waits (up to 10 s) until the state file is replaced: the rename's IN_MOVED_TO in its directory.
    static func awaitWrite(_ directory: String, _ body: () -> Void) -> Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        defer { close(fd) }
        inotify_add_watch(fd, directory, UInt32(IN_MOVED_TO))
        body()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) == 1 else { return false }
        return read(fd, &buffer, buffer.count) > 0
    }

    @Test("every piece of state comes back after a clean stop and after kill -9: tempo to its tenth, a client's range and table, volume, mode")
    func restoresEverything() throws {
        let (directory, config) = Self.setUp()
        defer { Self.tearDown(directory) }
        var (daemon, client) = try Self.start(directory, config)
        _ = Self.command(client, "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":96.5}")
        _ = Self.command(client, "{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":63}")
        let before = Self.command(client, "{\"cmd\":\"set\",\"control\":\"mode\",\"mode\":\"volume\"}")
        #expect(daemon.stop() == 0)
        (daemon, client) = try Self.start(directory, config)
        #expect(Self.kept(Self.command(client, "{\"cmd\":\"get\"}")) == Self.kept(before))
        #expect(Self.kept(before) == "96.5 [20,300] \"integer\" volume 63 mode \"volume\"")

        var after: JSONValue?
        #expect(Self.awaitWrite(directory) {
            _ = Self.command(client, "{\"cmd\":\"set\",\"control\":\"tempo\",\"range\":[40,208],\"table\":\"maelzel\",\"bpm\":66}")
            _ = Self.command(client, "{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":41}")
            after = Self.command(client, "{\"cmd\":\"set\",\"control\":\"mode\",\"mode\":\"scrub\"}")
        })
        daemon.signal(SIGKILL)
        #expect(daemon.wait() == 128 + SIGKILL)
        daemon.cleanup()
        (daemon, client) = try Self.start(directory, config)
        defer { _ = daemon.stop() }
        #expect(Self.kept(Self.command(client, "{\"cmd\":\"get\"}")) == Self.kept(after))
        #expect(Self.kept(after) == "66 [40,208] \"maelzel\" volume 41 mode \"scrub\"")
    }

    @Test("--state naming the socket or its lock: flywheeld refuses to start (exit 2), saying so, and makes neither")
    func stateIsNotTheSocket() throws {
        let (directory, _) = Self.setUp()
        defer { Self.tearDown(directory) }
        for state in [directory + "/flywheel.sock", directory + "/flywheel.sock.lock"] {
            let daemon = try DaemonProcess(["--no-devices", "--state", state], socketPath: directory + "/flywheel.sock", waitForReady: false)
            #expect(daemon.wait() == 2)
            #expect(daemon.readStderr().contains("--state \(state) is the socket"))
            daemon.cleanup()
            #expect(!RepositoryPaths.list(directory).contains("flywheel.sock"))
        }
    }

    /// One flywheeld of a chain of lives on one state file: the states it held, and when it dies.
    final class Life {
        let daemon: DaemonProcess
        let client: TestClient
        /// What it restored at its start, and every state it held since.
        let started: String
        var held: Set<String>
        var nextSet: Int64
        /// When it is killed; for a kill aligned with the first write, set at the first set's answer.
        var killAt: Int64
        let aligned: Bool
        init(_ daemon: DaemonProcess, _ client: TestClient, started: String, now: Int64, killAt: Int64, aligned: Bool) {
            self.daemon = daemon
            self.client = client
            self.started = started
            held = [started]
            nextSet = now
            self.killAt = killAt
            self.aligned = aligned
        }
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The kills: 1,000 on the host; fewer where each start costs far more (an emulated CPU, a
    /// sanitizer's build), where the host has shown the rest.
    static let kills: Int = {
        if getenv("FLYWHEEL_LANE").map({ String(cString: $0) }) == "arm64" { return 40 }
        return getenv("FLYWHEEL_SANITIZER") != nil ? 150 : 1_000
    }()

    @Test("kill -9 at random instants during bursts of sets, 1,000 times: the file is never torn, each restart is one state flywheeld held, and it starts every time")
    func killsDuringWrites() throws {
        var generator = SystemRandomNumberGenerator()
        // Lives at once, each about a second long: four or more lives a chain.
        let chains = max(1, min(24, Self.kills / 4))
        var directories: [(String, String)] = []
        for _ in 0..<chains { directories.append(Self.setUp()) }
        defer { for (directory, _) in directories { Self.tearDown(directory) } }
        func life(_ chain: Int) throws -> Life {
            let (daemon, client) = try Self.start(directories[chain].0, directories[chain].1)
            let started = Self.kept(Self.command(client, "{\"cmd\":\"get\"}"))
            let now = Self.now()
            // Half the kills within 15 ms of the first write (1 s after the first set is answered:
            // set then), half anywhere in the life's first 1.2 s.
            let aligned = Bool.random(using: &generator)
            let killAt = aligned ? Int64.max : now + Int64.random(in: 0...1_200_000_000, using: &generator)
            return Life(daemon, client, started: started, now: now, killAt: killAt, aligned: aligned)
        }
        var lives = try (0..<chains).map(life)
        var killed = 0, written = 0, restoredFromWrite = 0
        var failures: [String] = []
        while killed < Self.kills, failures.count < 5 {
            let now = Self.now()
            for chain in 0..<chains where killed < Self.kills {
                let current = lives[chain]
                if now >= current.killAt {
                    current.daemon.signal(SIGKILL)
                    _ = current.daemon.wait()
                    current.daemon.cleanup()
                    killed += 1
                    let path = directories[chain].0 + "/state"
                    // Never torn: no file yet, or one that reads as a state.
                    var onDisk = "(no file)"
                    let text = RepositoryPaths.read(path)
                    if let text {
                        written += 1
                        if let state = try? SavedState.decode(Array(text.utf8)) {
                            onDisk = "\(state.bpm) BPM, volume \(state.volume), mode \(state.mode.rawValue)"
                        } else {
                            failures.append("kill \(killed): the state file is torn: \(text.debugDescription)")
                        }
                    }
                    let next = try life(chain)
                    let restored = next.started
                    if !current.held.contains(restored) {
                        failures.append("kill \(killed): restarted at \(restored) (the file: \(onDisk)), which the killed flywheeld never held")
                    }
                    if restored != current.started { restoredFromWrite += 1 }
                    lives[chain] = next
                } else if now >= current.nextSet {
                    let line: String
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: line = "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(Double(Int.random(in: 200...3000, using: &generator)) / 10)}"
                    case 1: line = "{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":\(Int.random(in: 0...80, using: &generator))}"
                    default: line = "{\"cmd\":\"set\",\"control\":\"mode\",\"mode\":\"\(["tempo", "scrub", "volume"].randomElement(using: &generator)!)\"}"
                    }
                    let reply = Self.command(current.client, line)
                    if reply?["class"]?.stringValue != "state" { failures.append("a set was answered \(reply?.encoded() ?? "nothing")") }
                    if current.aligned, current.killAt == Int64.max {
                        current.killAt = Self.now() + 1_000_000_000 + Int64.random(in: -15_000_000...15_000_000, using: &generator)
                    }
                    current.held.insert(Self.kept(reply))
                    current.nextSet = now + 5_000_000
                }
            }
            let next = lives.map { min($0.killAt, $0.nextSet) }.min()!
            let wait = next - Self.now()
            if wait > 0 {
                var time = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
                nanosleep(&time, nil)
            }
        }
        for current in lives { _ = current.daemon.stop() }
        #expect(failures.isEmpty, "\(failures)")
        #expect(killed == Self.kills)
        // The kills reached the writes: most lives left a file, and many restarts came from a write made in the life killed.
        // (Measured: on the host 984 of 1,000 kills found a file and 516 restarted from a write the killed
        // life made; with the arm64 lane's count, 40, run on the host, 33 and 20.)
        #expect(written > killed / 4 && restoredFromWrite > killed / 8, "\(written) files, \(restoredFromWrite) restored from the killed life's write, of \(killed)")
    }
}
