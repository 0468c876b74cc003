import FlywheelCore
import Glibc
import Testing

/// What the faulty-peer tests (issue 33) share: the bounds the issue sets, a child process with its
/// descriptors and environment chosen, and readings of a child's memory, CPU and time to exit.
enum FaultyPeer {
    /// Issue 33: "SIGTERM ends each bridge within 100 ms". The bound asserted is 0.25 s: the
    /// 100 ms plus an allowance for scheduling, because these tests share a loaded 2-core machine
    /// (a CI run beside them) where both the bridge (to read its signalfd and exit) and the test
    /// (to reap it) must be given a core. A bridge blocked on its peer never exits (it is killed
    /// after `giveUpSeconds`), so the allowance does not blur what the test separates. Under
    /// qemu-user (the arm64 lane, FLYWHEEL_LANE=arm64) every instruction of the way out goes
    /// through the emulator's translator, several times slower: 1 s there.
    static let terminationBound = emulated ? 1.0 : 0.25
    static let giveUpSeconds = 1.5
    /// Issue 33: "each bridge's RSS stays under 20 MB" against every faulty peer. Not checked
    /// under qemu-user, where a bridge's RSS is mostly the emulator's own and its code cache, nor
    /// in a sanitizer's build, where it is mostly the sanitizer's shadow memory (about 36 MB at
    /// start under ThreadSanitizer).
    static let rssLimitKilobytes = 20 * 1024
    static let emulated = getenv("FLYWHEEL_LANE").map { String(cString: $0) } == "arm64"
    /// The sanitizer the suite's build runs under, when Tests/scripts/sanitizers.sh runs it
    /// (FLYWHEEL_SANITIZER=thread or address); nil for a plain build.
    static let sanitizer = getenv("FLYWHEEL_SANITIZER").map { String(cString: $0) }
    /// Issue 33: "its CPU near zero": under 10 % of one core over the window measured (0.0 % on
    /// the host with the release build). Under qemu-user every instruction is translated, and a
    /// reconnection that reads a flooding peer's 64 KiB costs an emulated 10 % or so: 30 % there.
    static let cpuLimit = emulated ? 0.30 : 0.10

    static func temporaryDirectory() -> String {
        var template = Array("/tmp/flywheel-faulty-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func text(_ path: String) -> String { RepositoryPaths.read(path) ?? "" }
    static func lines(_ path: String) -> [String] { text(path).split(separator: "\n").map(String.init) }

    static func eventually(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        MPDBridgeTests.eventually(seconds: seconds, condition)
    }

    /// Sends SIGTERM and returns the seconds (CLOCK_MONOTONIC) from `kill` to the reaping
    /// `waitpid`, or nil when the child had not exited after `giveUpSeconds` (it is then killed).
    static func secondsToExit(_ child: Child, signal: Int32 = SIGTERM) -> Double? {
        let start = MonotonicClockForTests.now()
        kill(child.pid, signal)
        while MonotonicClockForTests.now() - start < giveUpSeconds {
            if child.hasExited { return MonotonicClockForTests.now() - start }
            usleep(1000)  // the measurement's resolution: 1 ms
        }
        if child.hasExited { return MonotonicClockForTests.now() - start }
        child.stop(SIGKILL)
        return nil
    }

    /// Expects SIGTERM to end `child` within ``terminationBound``; `what` names it in the failure.
    static func expectStopsPromptly(_ child: Child, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let seconds = secondsToExit(child)
        #expect(
            seconds.map { $0 <= terminationBound } == true,
            "\(what): SIGTERM to exit took \(seconds.map { "\(Int($0 * 1000)) ms" } ?? "more than \(giveUpSeconds) s (hung; killed)"), bound \(Int(terminationBound * 1000)) ms",
            sourceLocation: sourceLocation)
    }

    /// VmRSS of `pid` in kB (nil once it has gone); `field` "VmHWM" gives its peak RSS since it started.
    static func residentKilobytes(_ pid: pid_t, field: String = "VmRSS") -> Int? {
        for line in text("/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// Expects `pid`'s peak RSS since it started (VmHWM, the kernel's own high-water mark: a peak
    /// between two samples is not missed) under the issue's 20 MB, where RSS is the bridge's own
    /// (see ``rssLimitKilobytes``); returns the peak in kB.
    @discardableResult
    static func expectPeakUnderBound(_ pid: pid_t, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let peak = residentKilobytes(pid, field: "VmHWM") ?? 0
        if !emulated, sanitizer == nil {
            #expect(peak > 0 && peak < rssLimitKilobytes, "\(what): peak RSS \(peak) kB; RSS bound 20 MB", sourceLocation: sourceLocation)
        }
        return peak
    }

    /// utime + stime of `pid` in seconds.
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        let stat = text("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    struct Usage: CustomStringConvertible {
        /// CPU time over wall time (1 = one core).
        var cpuShare: Double
        var peakKilobytes: Int
        var description: String { "CPU \(Int(cpuShare * 100)) % of a core, peak RSS \(peakKilobytes / 1024) MB" }
    }

    /// `pid`'s CPU share and peak RSS over a window of `seconds` (a measurement over a fixed
    /// window, sampled every 50 ms; no synchronisation hangs on it).
    static func usage(of pid: pid_t, over seconds: Double) -> Usage {
        let start = MonotonicClockForTests.now()
        let cpuBefore = cpuSeconds(pid) ?? 0
        var peak = residentKilobytes(pid) ?? 0
        while MonotonicClockForTests.now() - start < seconds {
            usleep(50_000)
            peak = max(peak, residentKilobytes(pid) ?? 0)
        }
        let cpu = (cpuSeconds(pid) ?? cpuBefore) - cpuBefore
        return Usage(cpuShare: cpu / (MonotonicClockForTests.now() - start), peakKilobytes: peak)
    }

    /// Expects `usage` within the issue's memory and CPU bounds.
    static func expectFrugal(_ usage: Usage, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if !emulated, sanitizer == nil { #expect(usage.peakKilobytes < rssLimitKilobytes, "\(what): \(usage); RSS bound 20 MB", sourceLocation: sourceLocation) }
        #expect(usage.cpuShare < cpuLimit, "\(what): \(usage); CPU bound \(Int(cpuLimit * 100)) % of a core", sourceLocation: sourceLocation)
    }

    /// Whether `pid` sleeps in a write to a pipe or FIFO (its kernel wait channel), or in the write system call.
    static func blockedWriting(_ pid: pid_t) -> Bool {
        if text("/proc/\(pid)/wchan").contains("pipe_write") { return true }
        let call = text("/proc/\(pid)/syscall").split(separator: " ").first
        return call != nil && call == writeSyscall.map { Substring(String($0)) }
    }

    /// write(2)'s number, as /proc/PID/syscall shows it (Swift's Glibc module does not export SYS_write).
    static var writeSyscall: Int? {
        #if arch(x86_64)
        return 1
        #elseif arch(arm64)
        return 64
        #else
        return nil
        #endif
    }

    /// flywheeld's `state` now, asked on a connection of its own.
    static func state(_ socketPath: String) -> JSONValue? {
        guard let client = try? TestClient(socketPath, timeoutSeconds: 5) else { return nil }
        client.send(#"{"cmd":"get"}"#)
        return client.next(where: { $0["class"] == .string("state") })
    }

    /// Sends `command` on `client` and waits for its `state` answer (a `set` is answered with the
    /// state, after the daemon has sent its event to every watcher).
    @discardableResult
    static func set(_ client: TestClient, _ command: String) -> JSONValue? {
        client.send(command)
        return client.next(where: { $0["class"] == .string("state") || $0["class"] == .string("error") })
    }

    /// A connected socket pair for a child's standard input: `test` is the test's end, `child`
    /// goes to the child's descriptor 0. Both are close-on-exec (the child's copy is made by dup2),
    /// so no other child holds the input open.
    static func inputPair() -> (test: Int32, child: Int32) {
        var pair: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        return (pair[0], pair[1])
    }

    /// Sends as much of `bytes` as the peer takes, without blocking for longer than `stuckSeconds`
    /// at a time: the count sent (all of it, or where the peer stopped reading).
    static func send(_ fd: Int32, _ bytes: [UInt8], stuckSeconds: Double = 0.5) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { break }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, Int32(stuckSeconds * 1000)) == 0 { break }  // the reader has stopped
        }
        return offset
    }

    /// The `NoPorts` counter of /proc/net/snmp: UDP datagrams that reached a port nothing listens on.
    static func udpNoPorts() -> Int? {
        let rows = text("/proc/net/snmp").split(separator: "\n").filter { $0.hasPrefix("Udp:") }.map { $0.split(separator: " ") }
        guard rows.count >= 2, let column = rows[0].firstIndex(of: "NoPorts"), column < rows[1].count else { return nil }
        return Int(rows[1][column])
    }
}

/// A child process with its standard descriptors and environment chosen; SIGTERM, SIGINT and
/// SIGPIPE have their default actions in it (as under a shell), whatever this test process does
/// with them. `stop` signals and reaps it once.
final class Child {
    let pid: pid_t
    private var exitStatus: Int32?

    /// Runs `argv`; standard input from `stdinFD` (else /dev/null), standard output to `stdoutFD`
    /// or `stdoutPath`, standard error to `stderrPath`; `environment` entries (`NAME=value`) added
    /// to (or replacing) this process's own.
    init(
        _ argv: [String], stdinFD: Int32? = nil, stdoutFD: Int32? = nil, stdoutPath: String = "/dev/null", stderrPath: String = "/dev/null",
        environment: [String] = []
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        if let stdinFD { posix_spawn_file_actions_adddup2(&actions, stdinFD, 0) } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdoutFD { posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1) } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cEnv = ChildProcess.environment(adding: environment).map { strdup($0) } + [nil]
        let cArgs = argv.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard spawned == 0 else { throw TestFailure("posix_spawn \(argv[0]) failed: \(spawned)") }
        self.pid = pid
    }

    /// `flywheel` with `arguments`.
    convenience init(
        flywheel arguments: [String], stdinFD: Int32? = nil, stdoutFD: Int32? = nil, stdoutPath: String = "/dev/null", stderrPath: String,
        environment: [String] = []
    ) throws {
        try self.init(
            [ChildProcess.product("flywheel")] + arguments, stdinFD: stdinFD, stdoutFD: stdoutFD, stdoutPath: stdoutPath, stderrPath: stderrPath,
            environment: environment)
    }

    /// The exit status (128 + the signal when killed), once it has exited.
    var status: Int32? {
        _ = hasExited
        return exitStatus
    }

    /// Whether it has exited by itself (reaped then).
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return true
    }

    /// Signals it and reaps it once; later calls return the same status.
    @discardableResult func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if let exitStatus { return exitStatus }
        Glibc.kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return exitStatus!
    }

    /// Killed for good, unless it has exited: a test's cleanup (a hung bridge must not outlive its
    /// test, and SIGTERM would wait on it forever).
    func forceStop() { if !hasExited { stop(SIGKILL) } }
}
