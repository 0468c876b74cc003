import FlywheelCore
import Glibc

/// A real flywheeld child process in a temporary directory, ready when it says READY=1 over
/// NOTIFY_SOCKET (no sleeps: the test waits on the datagram).
final class DaemonProcess {
    let directory: String
    let socketPath: String
    let notifyPath: String
    private(set) var notifyFD: Int32
    private(set) var pid: pid_t = 0
    private(set) var stderrFD: Int32 = -1

    /// Starts `flywheeld --socket DIR/flywheel.sock` plus `arguments`; `shell` runs it through
    /// `/bin/sh -c` instead (for socket activation, where LISTEN_PID must be the daemon's own pid).
    /// Without `socketOption`, no `--socket` is given (the configuration's path or the default is used).
    init(
        _ arguments: [String], socketPath: String? = nil, socketOption: Bool = true, shellPrefix: String? = nil, extraEnvironment: [String] = [],
        passListener: Int32? = nil, waitForReady: Bool = true
    ) throws {
        var template = Array("/tmp/flywheel-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        self.socketPath = socketPath ?? directory + "/flywheel.sock"
        notifyPath = directory + "/notify"
        notifyFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnixAddress(notifyPath) { bind(notifyFD, $0, $1) }
        guard bound == 0 else { throw TestFailure("binding the notify socket failed") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(notifyFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let daemon = ChildProcess.product("flywheeld")
        let argv: [String]
        // Devices come from a directory of the test's own, never the machine's /dev/input.
        let devices = arguments.contains("--input-dir") ? [] : ["--input-dir", directory + "/input", "--gpio-dir", directory + "/gpio"]
        let full = (socketOption ? ["--socket", self.socketPath] : []) + ["--hardware", RepositoryPaths.path("hardware")] + devices + arguments
        if let shellPrefix {
            argv = ["/bin/sh", "-c", shellPrefix + " exec \"$0\" \"$@\"", daemon] + full
        } else {
            argv = [daemon] + full
        }
        var environment = ["NOTIFY_SOCKET=\(notifyPath)", "PATH=/usr/bin:/bin"] + extraEnvironment
        if let home = getenv("HOME") { environment.append("HOME=\(String(cString: home))") }
        var errPipe: [Int32] = [0, 0]
        _ = pipe(&errPipe)
        _ = fcntl(errPipe[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        if let passListener { posix_spawn_file_actions_adddup2(&actions, passListener, 3) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        close(errPipe[1])
        stderrFD = errPipe[0]
        guard spawned == 0 else { throw TestFailure("posix_spawn \(argv[0]) failed: \(spawned)") }
        if waitForReady {
            let message = receiveNotification()
            guard message == "READY=1" else {
                throw TestFailure("flywheeld did not become ready (got \(message ?? "nothing")); stderr: \(readStderr())")
            }
        }
    }

    /// The next sd_notify datagram (nil after 30 s).
    func receiveNotification() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(notifyFD, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    /// Everything the daemon wrote to standard error so far (blocks until it closes it).
    func readStderr() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(stderrFD, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for the daemon to exit and returns its exit status (128 + signal when killed).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Stops it with SIGTERM and cleans up.
    func stop() -> Int32 {
        signal(SIGTERM)
        let status = wait()
        cleanup()
        return status
    }

    /// Closes the test's ends (once: a second call closes nothing) and removes the socket, its
    /// lock and the directory.
    func cleanup() {
        if notifyFD >= 0 { close(notifyFD) }
        if stderrFD >= 0 { close(stderrFD) }
        notifyFD = -1
        stderrFD = -1
        unlink(notifyPath)
        unlink(socketPath)
        unlink(socketPath + ".lock")
        for name in RepositoryPaths.list(directory + "/input") { unlink(directory + "/input/" + name) }
        rmdir(directory + "/input")
        rmdir(directory)
    }
}

/// Calls a socket function (bind, connect) with the `sockaddr_un` of `path`.
func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A test's client connection with a receive timeout, so a missing event fails instead of hanging.
final class TestClient {
    let fd: Int32
    var buffer: [UInt8] = []

    init(_ path: String, timeoutSeconds: Int = 30) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = withUnixAddress(path) { connect(fd, $0, $1) }
        guard connected == 0 else {
            // Closed here and only here: `self.fd` is not set, so no deinit closes the number again
            // (by then perhaps another test's descriptor, in this process of parallel tests).
            let error = errno
            close(fd)
            throw TestFailure("connect to \(path) failed: errno \(error)")
        }
        self.fd = fd
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends bytes (no SIGPIPE if the daemon has closed the connection); false when it could not.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ line: String) -> Bool { send(Array((line + "\n").utf8)) }

    /// The next line parsed as JSON, or nil at end of stream or timeout.
    func next() -> JSONValue? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return try? JSONParser.parse(line)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// The next raw line (for non-JSON peers such as MPD), or nil.
    func rawLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Reads until a message satisfies `predicate` (returning it) or the stream ends.
    func next(where predicate: (JSONValue) -> Bool) -> JSONValue? {
        while let message = next() { if predicate(message) { return message } }
        return nil
    }
}
