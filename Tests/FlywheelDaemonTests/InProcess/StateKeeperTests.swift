import FlywheelCore
@testable import FlywheelDaemon
@testable import FlywheelIO
import Glibc
import Testing

/// flywheeld's state file, in this process and in virtual time (issue 45): restored before
/// serving, under the configuration's bounds; written within a second of a change, at most once
/// a second, never at rest; a file that cannot be used or written is said once and costs nothing
/// else. (A real restart, `kill -9` and the power cut are in StateRestartTests and the system lane.)
@Suite("flywheeld's state file, in process", .serialized)
@MainActor
struct StateKeeperTests {
    static let second: Nanoseconds = 1_000_000_000
    static let ms: Nanoseconds = 1_000_000

    /// A new directory for a state file.
    static func directory() -> String {
        var template = Array("/tmp/flywheel-state-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func removeTree(_ path: String) {
        for name in (try? FileSystem.listDirectory(path)) ?? [] {
            let inside = path + "/" + name
            if unlink(inside) != 0 {
                removeTree(inside)
            }
        }
        rmdir(path)
    }

    static func read(_ path: String) -> SavedState? {
        (try? StateFile.read(path, limitBytes: 4096)).flatMap { $0 }.flatMap { try? SavedState.decode($0) }
    }

    /// The `state` a `get` answers.
    static func state(_ client: InProcessClient) throws -> JSONValue? {
        try client.send("{\"cmd\":\"get\"}")
        return try client.next(where: { $0["class"]?.stringValue == "state" })
    }

    @Test("restored before serving: a tempo to its tenth, the mode, and the volume at most restore_max (50 by default), said")
    func restore() throws {
        let directory = Self.directory()
        defer { Self.removeTree(directory) }
        try StripDaemonTests.write("{\"version\":1,\"bpm\":96.5,\"volume\":70,\"mode\":\"scrub\"}\n", to: directory + "/state")
        let daemon = try InProcessDaemon(["--frames", "0", "--no-devices", "--state", directory + "/state"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        let state = try #require(try Self.state(client))
        #expect(state["tempo"]?["bpm"] == .double(96.5))
        #expect(state["volume"]?["volume"] == .int(50))
        #expect(state["mode"]?["active"] == .string("scrub"))
        #expect(daemon.said.filter { $0.contains(directory + "/state") && $0.contains("restore_max 50") }.count == 1, "\(daemon.said)")
        #expect(daemon.daemon.loop.nextDeadline == nil, "nothing written at start: the file keeps 70 until a change")
        try client.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":97}")
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(try daemon.advanceToDeadline())
        #expect(Self.read(directory + "/state") == SavedState(bpm: 97, volume: 50, mode: .scrub))
    }

    @Test("a set is written 1 s later, once; at rest nothing is armed and nothing written; a clean stop writes what is pending")
    func writeAfterChange() throws {
        let directory = Self.directory()
        defer { Self.removeTree(directory) }
        let path = directory + "/state"
        let daemon = try InProcessDaemon(["--frames", "0", "--no-devices", "--state", path])
        let keeper = try #require(daemon.daemon.stateKeeper)
        let client = try daemon.connect()
        _ = try client.next()
        #expect(daemon.daemon.loop.nextDeadline == nil, "nothing armed at rest")
        let start = daemon.clock.now
        try client.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":96}")
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(keeper.dueNanoseconds == start + Self.second)
        #expect(Self.read(path) == nil, "not written at once")
        #expect(try daemon.advanceToDeadline())
        #expect(daemon.clock.now == start + Self.second)
        #expect(Self.read(path)?.bpm == 96 && keeper.writes == 1)
        #expect(daemon.daemon.loop.nextDeadline == nil, "at rest again: nothing armed")
        // Back and forth to what the file holds: nothing to write.
        try client.send("{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":40}")
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        try client.send("{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":30}")
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(keeper.dueNanoseconds == nil)
        // A change, then a clean stop before its second: written at the stop.
        try client.send("{\"cmd\":\"set\",\"control\":\"mode\",\"mode\":\"scrub\"}")
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        daemon.stop()
        #expect(Self.read(path)?.mode == .scrub && keeper.writes == 2)
    }

    @Test("ten seconds of changes every 100 ms: at most one write a second, the last change written within a second of it")
    func writeRate() throws {
        let directory = Self.directory()
        defer { Self.removeTree(directory) }
        let path = directory + "/state"
        let daemon = try InProcessDaemon(["--frames", "0", "--no-devices", "--state", path])
        defer { daemon.stop() }
        let keeper = try #require(daemon.daemon.stateKeeper)
        let client = try daemon.connect()
        _ = try client.next()
        let start = daemon.clock.now
        var writeTimes: [Nanoseconds] = []
        var lastChange: Nanoseconds = 0
        for index in 0..<100 {
            daemon.clock.advance(to: start + Nanoseconds(index) * 100 * Self.ms)
            let before = keeper.writes
            try daemon.turn()
            if keeper.writes > before { writeTimes.append(daemon.clock.now) }
            try client.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(60 + index)}")
            _ = try client.next(where: { $0["class"]?.stringValue == "state" })
            lastChange = daemon.clock.now
        }
        while keeper.dueNanoseconds != nil {
            let before = keeper.writes
            #expect(try daemon.advanceToDeadline())
            if keeper.writes > before { writeTimes.append(daemon.clock.now) }
        }
        #expect(writeTimes.count >= 9 && writeTimes.count <= 11, "\(writeTimes.count) writes in 10 s")
        for (earlier, later) in zip(writeTimes, writeTimes.dropFirst()) { #expect(later - earlier >= Self.second) }
        #expect(writeTimes.last! - lastChange <= Self.second && writeTimes.last! >= lastChange)
        #expect(Self.read(path)?.bpm == 159)
        #expect(daemon.daemon.loop.nextDeadline == nil, "nothing armed at rest")
    }

    /// What each hostile file is, made at `path`.
    static let hostile: [(String, (String) throws -> Void)] = [
        ("empty", { try StripDaemonTests.write("", to: $0) }),
        ("truncated", { try StripDaemonTests.write("{\"version\":1,\"bpm\":9", to: $0) }),
        ("garbage", { try StripDaemonTests.write("\u{1}\u{2}PK\u{3}\u{4} not json at all", to: $0) }),
        ("10 MB", { try StripDaemonTests.write(String(repeating: "{", count: 10_000_000), to: $0) }),
        ("a directory", { mkdir($0, 0o755) }),
        ("a symbolic link", { symlink("/etc/passwd", $0) }),
        ("a later version", { try StripDaemonTests.write("{\"version\":9,\"bpm\":96,\"volume\":30,\"mode\":\"tempo\",\"swing\":0.6}", to: $0) }),
        ("a FIFO", { mkfifo($0, 0o644) }),
    ]

    @Test("a hostile state file: the defaults, one warning naming the file, and a new file at the next change", arguments: 0..<8)
    func hostileFile(_ index: Int) throws {
        let (what, make) = Self.hostile[index]
        let directory = Self.directory()
        defer { Self.removeTree(directory) }
        let path = directory + "/state"
        try make(path)
        let daemon = try InProcessDaemon(["--frames", "0", "--no-devices", "--state", path])
        defer { daemon.stop() }
        #expect(daemon.said.count == 1 && daemon.said[0].hasPrefix("warning: ") && daemon.said[0].contains(path), "\(what): \(daemon.said)")
        let client = try daemon.connect()
        _ = try client.next()
        let state = try #require(try Self.state(client))
        #expect(state["tempo"]?["bpm"] == .int(120) && state["volume"]?["volume"] == .int(30), "\(what)")
        try client.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":88}")
        _ = try client.next(where: { $0["class"]?.stringValue == "state" })
        #expect(try daemon.advanceToDeadline())
        #expect(Self.read(path)?.bpm == 88, "\(what): a new file")
        #expect(daemon.said.count == 1, "\(what): \(daemon.said)")
        if what == "a symbolic link" { #expect(Self.read("/etc/passwd") == nil, "the link's target is not written") }
    }

    @Test("a state file that cannot be written is said once; flywheeld serves on, and says nothing more for later changes")
    func unwritable() throws {
        let directory = Self.directory()
        defer { Self.removeTree(directory) }
        try StripDaemonTests.write("a file where the state directory should be", to: directory + "/var")
        let daemon = try InProcessDaemon(["--frames", "0", "--no-devices", "--state", directory + "/var/state"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()
        for bpm in [90, 91, 92] {
            try client.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(bpm)}")
            _ = try client.next(where: { $0["class"]?.stringValue == "state" })
            #expect(try daemon.advanceToDeadline())
        }
        let warnings = daemon.said.filter { $0.contains("cannot be written") }
        #expect(warnings.count == 1, "\(daemon.said)")
        #expect(daemon.said.contains { $0.contains("cannot be read") }, "the start said the file could not be read either: \(daemon.said)")
        #expect(try client.pong(passing: ["tempo", "state"]))
        #expect(daemon.daemon.loop.nextDeadline == nil, "no retry loop at rest")
    }

    @Test("--state naming the configuration file is refused before anything is made or written (the socket: StateRestartTests)")
    func ownFile() throws {
        let directory = Self.directory()
        defer { Self.removeTree(directory) }
        let config = directory + "/flywheel.json5"
        try StripDaemonTests.write("{ controls: { volume: { step: 1 } } }\n", to: config)
        #expect(throws: ToolError.self) { _ = try InProcessDaemon(["--config", config, "--frames", "0", "--no-devices", "--state", config]) }
        let text = try FileSystem.readFile(config)
        #expect(String(decoding: text, as: UTF8.self) == "{ controls: { volume: { step: 1 } } }\n")
    }

    @Test("--simulate and --replay use no state file unless --state names one; under systemd flywheeld uses $STATE_DIRECTORY/state")
    func whichFile() throws {
        setenv("STATE_DIRECTORY", "/var/lib/flywheel:/var/lib/other", 1)
        defer { unsetenv("STATE_DIRECTORY") }
        func file(_ arguments: [String]) throws -> String? {
            guard case .serve(let options) = try DaemonOptions.parse(arguments) else { return "(none: not serving)" }
            return options.stateFile
        }
        #expect(try file([]) == "/var/lib/flywheel/state")
        #expect(try file(["--simulate", "demo"]) == nil)
        #expect(try file(["--replay", "x.edges"]) == nil)
        #expect(try file(["--simulate", "demo", "--state", "/tmp/s"]) == "/tmp/s")
        unsetenv("STATE_DIRECTORY")
        #expect(try file([]) == nil)
        #expect(throws: ToolError.self) { try DaemonOptions.parse(["--state", ""]) }
    }
}
