import FlywheelCore
import FlywheelIO
import Glibc
import Testing

/// A careless or hostile local program against a real flywheeld: it cannot take over the socket
/// or its file (what only the binary, its users and its files show). Clients at the wrong pace and
/// reloads are in FlywheelDaemonTests, in process: ClientPaceTests, ScenarioClientsTests.
@Suite("flywheeld against hostile peers", .serialized)
struct HostilePeerTests {
    static func pong(_ client: TestClient) -> Bool {
        client.send("{\"cmd\":\"ping\"}")
        return client.next(where: { $0["class"] != .string("hello") && $0["class"] != .string("tempo") })?["class"] == .string("pong")
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
        #expect(impostor.readStderr().contains("another flywheeld owns \(daemon.socketPath)"))
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
    /// A ``DaemonProcess`` shell prefix that runs the daemon under strace, tracing `calls` into `trace`.
    static func tracing(_ calls: String, into trace: String) -> String {
        "\(leaksUntraceable)exec \(strace) -f -qq -e trace=\(calls) -e signal=none -o \(trace) \"$0\" \"$@\";"
    }
    @Test("the socket's mode and group are never set by a path that follows links (every such call, traced, is lchown or on a descriptor)",
          .enabled(if: access(strace, X_OK) == 0 || HostTools.required, "strace is not installed"))
    func permissionsNeverFollowLinks() throws {
        let trace = DaemonConfigurationTests.write("") + ".trace"
        let path = DaemonConfigurationTests.write("{ socket: { group: 'daemon', mode: '0666' } }")
        let daemon = try DaemonProcess(
            ["--config", path, "--frames", "0"],
            shellPrefix: Self.tracing("chmod,fchmodat,chown,fchownat,lchown,fchmod,fchown,rename,renameat,renameat2", into: trace))
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

    /// The closes a traced run made (strace's `close(N) = R` lines), and those that failed.
    static func closes(in trace: String) -> (all: [String], failed: [String]) {
        let calls = (RepositoryPaths.read(trace) ?? "").split(separator: "\n").map(String.init).filter { $0.contains("close(") }
        return (calls, calls.filter { $0.contains("= -1") })
    }

    @Test("no descriptor is closed twice: a second daemon refused by the lock, and the first's life (clients, reload, stop), traced, have no close that fails",
          .enabled(if: access(strace, X_OK) == 0 || HostTools.required, "strace is not installed"))
    func closesEachDescriptorOnce() throws {
        // A second close of a number is EBADF, or, worse, closes whatever the number was given to
        // since (another thread's client, in a process that shares it). strace shows the first.
        let firstTrace = DaemonConfigurationTests.write("") + ".trace"
        let first = try DaemonProcess(
            ["--frames", "0"], shellPrefix: Self.tracing("close", into: firstTrace))
        var firstRunning = true
        defer {
            // strace holds SIGTERM while its tracee runs: the daemon itself (strace's child) is signalled.
            if firstRunning, let traced = Self.child(of: first.pid) { kill(traced, SIGTERM); _ = first.wait() }
            first.cleanup()
            unlink(firstTrace)
        }
        let secondTrace = firstTrace + ".second"
        let second = try DaemonProcess(
            ["--frames", "0"], socketPath: first.socketPath,
            shellPrefix: Self.tracing("close", into: secondTrace), waitForReady: false)
        #expect(second.wait() == 1)
        #expect(second.readStderr().contains("holds the lock"))
        defer { second.cleanup() }  // at the end: it removes its socket path, which is the first's
        let refused = Self.closes(in: secondTrace)
        unlink(secondTrace)
        #expect(!refused.all.isEmpty, "the refused daemon's trace has no close: strace did not run")
        #expect(refused.failed.isEmpty, "\(refused.failed)")

        let witness = try TestClient(first.socketPath)
        _ = witness.next()
        for index in 0..<200 {
            let client = try TestClient(first.socketPath)
            if index % 2 == 0 { client.send("{\"cmd\":\"ping\"}") }
        }
        #expect(Self.pong(witness))
        let traced = try #require(Self.child(of: first.pid))
        kill(traced, SIGHUP)
        #expect(witness.next(where: { $0["class"] == .string("state") }) != nil)  // the reload's state
        kill(traced, SIGTERM)
        #expect(first.wait() == 0)
        firstRunning = false
        let lived = Self.closes(in: firstTrace)
        #expect(lived.all.count > 200, "\(lived.all.count) closes traced for 200 clients")
        #expect(lived.failed.isEmpty, "\(lived.failed)")
    }

    @Test("--check-config refuses an unknown socket group and an unknown profile, naming the key")
    func checkConfig() throws {
        let path = DaemonConfigurationTests.write("{ socket: { group: 'no-such-group-flywheel' }, devices: [{ profile: 'powermat', path: '/dev/input/event9' }] }")
        let result = ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", path, "--check-config", "--hardware", RepositoryPaths.path("hardware")])
        #expect(result.status == 1)
        #expect(result.err.contains("socket.group") && result.err.contains("devices[0].profile"))
    }
}
