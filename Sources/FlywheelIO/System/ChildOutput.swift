import FlywheelCore
import Glibc

/// A program run as a child whose standard output and standard error come back on one
/// non-blocking pipe, for a loop that polls it (`wpctl`, `pw-mon`): the loop never waits on it.
/// The child starts with no signal blocked and SIGTERM, SIGINT and SIGPIPE at their defaults,
/// whatever this process does with them, its standard input /dev/null and this process's
/// environment. Dropping it kills a child still running.
public final class ChildOutput {
    /// The program's path.
    public let path: String
    public let pid: pid_t
    /// The pipe's reading end, for `poll`.
    public let fd: Int32
    /// The exit status, once reaped: the status, or 128 + the signal that ended it.
    public private(set) var status: Int32?
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// `name` on `PATH` (or a path, when it has a '/'), or nil when there is none to run.
    public static func find(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = Environment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 { return "\(folder)/\(name)" }
        return nil
    }

    /// Starts `path` with `arguments` (after the program's name).
    public init(_ path: String, _ arguments: [String]) throws(SystemError) {
        var ends: [Int32] = [0, 0]
        _ = try Syscall.call("pipe", path) { pipe(&ends) }
        // Close-on-exec both (the child gets its copies by dup2); only our reading end non-blocking.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArguments = ([path] + arguments).map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, cArguments, environ)
        Glibc.close(ends[1])
        guard spawned == 0 else {
            Glibc.close(ends[0])
            throw SystemError(function: "posix_spawn", subject: path, errno: spawned)
        }
        self.path = path
        self.pid = pid
        fd = ends[0]
    }

    deinit {
        if status == nil {
            Glibc.kill(pid, SIGKILL)
            _ = reap()
        }
        Glibc.close(fd)
    }

    /// Reads what the child wrote (at most `maximumBytes` this time), handing each read to
    /// `bytes`; false once its output ended (it exited, or closed it).
    public func receive(maximumBytes: Int = 256 * 1024, _ bytes: (ArraySlice<UInt8>) -> Void) -> Bool {
        var total = 0
        while total < maximumBytes {
            guard let result = try? Syscall.nonBlocking("read", path, { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }) else {
                return false
            }
            guard case .processed(let count) = result else { return true }
            if count == 0 { return false }
            total += count
            bytes(chunk[0..<count])
        }
        return true
    }

    /// Kills the child (SIGKILL), if it still runs.
    public func kill() { if status == nil { Glibc.kill(pid, SIGKILL) } }

    /// Waits for the child to exit (its output has ended, so it has, or is about to): its status.
    @discardableResult
    public func reap() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let value = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = value
        return value
    }
}
