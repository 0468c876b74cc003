import FlywheelCore
import FlywheelIO
import Glibc
import Testing

/// A careless or hostile local program against a real flywheeld: it cannot take over the socket,
/// evict or starve the other clients, or change what the daemon promised.
@Suite("flywheeld against hostile peers", .serialized)
struct HostilePeerTests {
    static func pong(_ client: TestClient) -> Bool {
        client.send("{\"cmd\":\"ping\"}")
        return client.next(where: { $0["class"] != .string("hello") && $0["class"] != .string("tempo") })?["class"] == .string("pong")
    }

    /// Reads `fd` on a thread of its own until `lines` newlines have come or the stream ends, so
    /// a test can flood from its own thread while the replies are drained.
    final class Drain {
        let thread: pthread_t
        let state: UnsafeMutablePointer<(fd: Int32, lines: Int)>

        init(_ fd: Int32, lines: Int) {
            state = .allocate(capacity: 1)
            state.initialize(to: (fd, lines))
            var thread = pthread_t()
            pthread_create(&thread, nil, { raw in
                let state = raw!.assumingMemoryBound(to: (fd: Int32, lines: Int).self)
                var buffer = [UInt8](repeating: 0, count: 65536)
                var seen = 0
                while seen < state.pointee.lines {
                    let n = read(state.pointee.fd, &buffer, buffer.count)
                    if n <= 0 { break }
                    seen += buffer[0..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                }
                state.pointee.lines = seen
                return nil
            }, state)
            self.thread = thread
        }

        /// Waits for the thread; the number of lines it read.
        func join() -> Int {
            pthread_join(thread, nil)
            defer { state.deallocate() }
            return state.pointee.lines
        }
    }

    /// A second flywheeld on `daemon`'s path, run by `nobody` (who may write in its directory but
    /// not connect to its socket, 0660 root:root).
    static func impostor(of daemon: DaemonProcess) throws -> DaemonProcess {
        chmod(daemon.directory, 0o777)
        return try DaemonProcess(
            ["--frames", "0"], socketPath: daemon.socketPath, shellPrefix: "exec setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'exec \"$0\" \"$@\"' \"$0\" \"$@\";",
            waitForReady: false)
    }

    @Test("a second daemon run by a user who may not connect does not take the live socket for stale")
    func impostor() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let witness = try TestClient(daemon.socketPath)
        _ = witness.next()
        // nobody gets EACCES from connect() (the socket is 0660 root:root).
        let impostor = try Self.impostor(of: daemon)
        #expect(impostor.wait() != 0)
        #expect(impostor.readStderr().contains("Another flywheeld owns \(daemon.socketPath)"))
        #expect(Self.pong(witness))
        #expect(try TestClient(daemon.socketPath).next()?["class"] == .string("hello"))
    }

    @Test("the same impostor with the lock file removed: its connect() fails with EACCES, which is not stale, so it still refuses")
    func impostorWithoutLock() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let witness = try TestClient(daemon.socketPath)
        _ = witness.next()
        // Without the lock file the impostor's own new lock is free: only the probe can stop it.
        #expect(unlink(daemon.socketPath + ".lock") == 0)
        let impostor = try Self.impostor(of: daemon)
        #expect(impostor.wait() != 0)
        let said = impostor.readStderr()
        #expect(said.contains("EACCES"), "\(said)")
        #expect(Self.pong(witness))
        #expect(try TestClient(daemon.socketPath).next()?["class"] == .string("hello"))
    }

    static let strace = "/usr/bin/strace"
    /// LeakSanitizer cannot run under ptrace (it stops the program's threads with it): a daemon
    /// built with --sanitize=address is traced with its leak check off (the other tests run it).
    static let leaksUntraceable = FaultyPeer.sanitizer == "address" ? "export ASAN_OPTIONS=detect_leaks=0; " : ""
    @Test("the socket's mode and group are never set by a path that follows links (every such call, traced, is lchown or on a descriptor)",
          .enabled(if: access(strace, X_OK) == 0 || HostTools.required, "strace is not installed"))
    func permissionsNeverFollowLinks() throws {
        let trace = DaemonConfigurationTests.write("") + ".trace"
        let path = DaemonConfigurationTests.write("{ socket: { group: 'daemon', mode: '0666' } }")
        let daemon = try DaemonProcess(
            ["--config", path, "--frames", "0"],
            shellPrefix: "\(Self.leaksUntraceable)exec \(Self.strace) -f -qq -e trace=chmod,fchmodat,chown,fchownat,lchown,fchmod,fchown,rename,renameat,renameat2 -o \(trace) \"$0\" \"$@\";")
        #expect(try TestClient(daemon.socketPath).next()?["class"] == .string("hello"))
        // strace holds SIGTERM while its tracee runs: the daemon itself (strace's child) is stopped.
        let traced = try #require(Self.child(of: daemon.pid))
        kill(traced, SIGTERM)
        #expect(daemon.wait() == 0)
        daemon.cleanup()
        let calls = (RepositoryPaths.read(trace) ?? "").split(separator: "\n").map(String.init)
        unlink(trace)
        // The old order (bind at the path, then chmod and chown by it) made a racer's link decide
        // which file they changed; a traced call by path that follows links is that hazard.
        let following = calls.filter { call in
            ["chmod(", "chown(", "fchmodat(", "fchownat("].contains { call.contains(" " + $0) || call.hasPrefix($0) }
                && !call.contains("AT_SYMLINK_NOFOLLOW")
        }
        #expect(following.isEmpty, "\(following)")
        #expect(calls.contains { $0.contains("lchown(") || ($0.contains("fchownat(") && $0.contains("AT_SYMLINK_NOFOLLOW")) })
        #expect(calls.contains { $0.contains("rename") && $0.contains("\"\(daemon.socketPath)\"") })
    }

    /// A child of `parent` (from /proc/PID/stat: the pid, the name in parentheses, the state, the
    /// parent's pid), if it has one.
    static func child(of parent: pid_t) -> pid_t? {
        for name in RepositoryPaths.list("/proc") {
            guard let pid = pid_t(name), let stat = RepositoryPaths.read("/proc/\(name)/stat"),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == parent { return pid }
        }
        return nil
    }

    @Test("two daemons on one path: the second is refused even with the first's socket removed; the first removes only its own file")
    func twoDaemons() throws {
        let first = try DaemonProcess(["--frames", "0"])
        #expect(unlink(first.socketPath) == 0)
        let second = try DaemonProcess(["--frames", "0"], socketPath: first.socketPath, waitForReady: false)
        #expect(second.wait() == 1)
        #expect(second.readStderr().contains("holds the lock"))
        // Someone else's socket at the path now: the first daemon must leave it on exit.
        let stranger = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #expect(withUnixAddress(first.socketPath) { bind(stranger, $0, $1) } == 0)
        listen(stranger, 1)
        first.signal(SIGTERM)
        #expect(first.wait() == 0)
        #expect(access(first.socketPath, F_OK) == 0)
        #expect(try TestClient(first.socketPath, timeoutSeconds: 1).fd >= 0)
        close(stranger)
        first.cleanup()
    }

    @Test("a client that half-closes after watch (as socat does) keeps receiving events")
    func halfClosed() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let listener = try TestClient(daemon.socketPath)
        _ = listener.next()
        listener.send("{\"cmd\":\"watch\",\"classes\":[\"tempo\"]}")
        #expect(listener.next()?["class"] == .string("watch"))
        shutdown(listener.fd, Int32(SHUT_WR))
        let setter = try TestClient(daemon.socketPath)
        _ = setter.next()
        setter.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":97}")
        #expect(listener.next()?["bpm"] == .int(97))
    }

    @Test("3,000 set tempo lines in one write do not overflow a watching neighbour's queue")
    func setBurst() throws {
        let config = DaemonConfigurationTests.write("{ clients: { queue_messages: 16 } }")
        let daemon = try DaemonProcess(["--config", config, "--frames", "0"])
        defer { _ = daemon.stop() }
        let neighbour = try TestClient(daemon.socketPath)
        _ = neighbour.next()
        neighbour.send("{\"cmd\":\"watch\",\"classes\":[\"tempo\"]}")
        #expect(neighbour.next()?["class"] == .string("watch"))
        let flooder = try TestClient(daemon.socketPath)
        _ = flooder.next()
        flooder.send("{\"cmd\":\"watch\",\"classes\":[\"gap\"]}")  // its replies only
        #expect(flooder.next()?["class"] == .string("watch"))
        let count = 3000
        let drain = Drain(flooder.fd, lines: count)
        var burst = ""
        for index in 0..<count { burst += "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(40 + index % 200)}\n" }
        flooder.send(Array(burst.utf8))
        #expect(drain.join() == count)  // every set answered: all were handled before the neighbour reads
        // The neighbour, which read nothing meanwhile, is still connected and sees the last tempo.
        var last: JSONValue?
        while let message = neighbour.next(), message["class"] != .string("pong") {
            #expect(message["class"] != .string("error"), "\(message.encoded())")
            last = message
            if last?["bpm"] == .int(40 + (count - 1) % 200) { break }
        }
        #expect(last?["bpm"] == .int(40 + (count - 1) % 200))
        #expect(Self.pong(neighbour))
    }

    @Test("an overflowed client frees its slot at once: a new client is served, not refused")
    func overflowFreesSlot() throws {
        let daemon = try DaemonProcess(["--frames", "0", "--max-clients", "2"])
        defer { _ = daemon.stop() }
        let witness = try TestClient(daemon.socketPath)
        _ = witness.next()
        let slow = try TestClient(daemon.socketPath)
        // Pings from a client that reads nothing, until the daemon stops reading it (its writes
        // then fail: the daemon shut its receiving side when it overflowed).
        let burst = Array(String(repeating: "{\"cmd\":\"ping\"}\n", count: 1000).utf8)
        var bursts = 0
        while bursts < 1000, slow.send(burst) { bursts += 1 }
        #expect(bursts < 1000)
        let newcomer = try TestClient(daemon.socketPath)
        #expect(newcomer.next()?["class"] == .string("hello"))
        #expect(Self.pong(witness))
    }

    @Test("a CR and its LF in separate writes after a 64 KiB line: answered, not cut off as too long")
    func crlfAtLimit() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let client = try TestClient(daemon.socketPath)
        _ = client.next()
        client.send([UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024 - 14) + Array("{\"cmd\":\"ping\"}\r".utf8))
        // Round trips of another client give the daemon turns to read all of it (16 KiB a turn).
        let other = try TestClient(daemon.socketPath)
        _ = other.next()
        for _ in 0..<10 { #expect(Self.pong(other)) }
        client.send([0x0A])
        #expect(client.next()?["class"] == .string("pong"))
    }

    @Test("SIGHUP: a FIFO or /dev/zero in the configuration's place and an empty file keep the running configuration; --max-clients stays")
    func reloadTruths() throws {
        let path = DaemonConfigurationTests.write("{ controls: { tempo: { bpm: 96 } }, clients: { max_clients: 100 } }")
        let daemon = try DaemonProcess(["--config", path, "--frames", "0", "--max-clients", "1"])
        defer { _ = daemon.stop() }
        let client = try TestClient(daemon.socketPath)
        _ = client.next()
        for replacement in ["fifo", "zero", "empty"] {
            unlink(path)
            switch replacement {
            case "fifo": mkfifo(path, 0o600)
            case "zero": symlink("/dev/zero", path)
            default: RepositoryPaths.write("", to: path)
            }
            daemon.signal(SIGHUP)
            let state = client.next(where: { $0["class"]?.stringValue == "state" })
            #expect(state?["tempo"]?["bpm"] == .int(96), "\(replacement)")
            #expect(Self.pong(client), "\(replacement)")
        }
        unlink(path)
        RepositoryPaths.write("{ controls: { tempo: { bpm: 96 } }, clients: { max_clients: 100 } }", to: path)
        daemon.signal(SIGHUP)
        _ = client.next(where: { $0["class"]?.stringValue == "state" })
        // The command line's one client is still the limit after the reload.
        let second = try TestClient(daemon.socketPath)
        #expect(second.next()?["code"] == .string("too-many-clients"))
    }

    @Test("a reload during a scrub ends the scrub it began")
    func reloadDuringScrub() throws {
        let path = DaemonConfigurationTests.write("{ controls: { mode: { initial: 'scrub' } } }")
        let daemon = try DaemonProcess(["--config", path, "--simulate", DaemonEndToEndTests.flick, "--hold-until-clients", "1", "--frames", "0", "--scrub-duration", "214"])
        defer { _ = daemon.stop() }
        let client = try TestClient(daemon.socketPath)
        _ = client.next(where: { $0["class"]?.stringValue == "scrub" && $0["phase"]?.stringValue == "began" })
        daemon.signal(SIGHUP)
        // The scrub's next phase other than `moved` ends it: a second `began` first (the reload
        // leaving the first gesture open while the flick starts another) fails.
        let end = client.next(where: { $0["class"]?.stringValue == "scrub" && $0["phase"]?.stringValue != "moved" })
        #expect(end?["phase"] == .string("committed") || end?["phase"] == .string("cancelled"), "\(String(describing: end))")
    }

    @Test("--check-config refuses an unknown socket group and an unknown profile, naming the key")
    func checkConfig() throws {
        let path = DaemonConfigurationTests.write("{ socket: { group: 'no-such-group-flywheel' }, devices: [{ profile: 'powermat', path: '/dev/input/event9' }] }")
        let result = ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", path, "--check-config", "--hardware", RepositoryPaths.path("hardware")])
        #expect(result.status == 1)
        #expect(result.err.contains("socket.group") && result.err.contains("devices[0].profile"))
    }
}
