import Glibc

/// A child process started through the seam (posix_spawn), for tools that drive flywheeld.
public final class ChildProcess {
    /// Its process id.
    public let pid: pid_t
    var reaped = false

    /// Starts `arguments[0]` (a path) with `arguments` and `environment` ("NAME=value" entries).
    public init(_ arguments: [String], environment: [String]) throws(SystemError) {
        var pid: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        let status = posix_spawn(&pid, arguments[0], nil, nil, cArguments, cEnvironment)
        guard status == 0 else { throw SystemError(function: "posix_spawn", subject: arguments[0], errno: status) }
        self.pid = pid
    }

    /// Sends a signal.
    public func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for it to exit: its exit status, or 128 + the signal that ended it.
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Its resident set size in KiB (from /proc), or nil once gone.
    public var residentKilobytes: Int? {
        guard let bytes = try? FileSystem.readFile("/proc/\(pid)/status") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// CPU time used so far, in clock ticks (user + system, from /proc).
    public var cpuTicks: Int? {
        guard let bytes = try? FileSystem.readFile("/proc/\(pid)/stat") else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    deinit {
        if !reaped {
            signal(SIGKILL)
            _ = wait()
        }
    }
}
