import CLinux
import Glibc

/// A listening Unix stream socket: bound at a path (replacing a stale socket file, refusing a
/// symlink or a live daemon), or adopted from systemd socket activation.
public final class UnixListener {
    /// The listening descriptor (non-blocking).
    public let fd: Int32
    /// The path, when this process bound it (and must remove it on exit).
    public let ownedPath: String?

    init(fd: Int32, ownedPath: String?) {
        self.fd = fd
        self.ownedPath = ownedPath
    }

    /// A failure to set up the socket, as one sentence.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The socket systemd passed (`LISTEN_FDS`/`LISTEN_PID`), if any: descriptor 3.
    public static func fromSystemd() -> UnixListener? {
        guard let pid = Environment.value("LISTEN_PID"), Int32(pid) == getpid(),
            let count = Environment.value("LISTEN_FDS").flatMap(Int.init), count >= 1
        else { return nil }
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return UnixListener(fd: fd, ownedPath: nil)
    }

    static func address(_ path: String) throws(SetupError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw SetupError(description: "The socket path \(path) is \(bytes.count) bytes long; a Unix socket path must be under \(capacity).")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }

    /// Whether a daemon answers at `path`.
    static func answers(_ path: String) -> Bool {
        guard var address = try? address(path) else { return false }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }

    /// Binds and listens at `path` with permission `mode` and, if given, group `group`.
    public static func bind(path: String, mode: mode_t = 0o660, group: String? = nil) throws -> UnixListener {
        var info = stat()
        if lstat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFLNK {
                throw SetupError(description: "\(path) is a symbolic link; flywheeld does not follow links at its socket path.")
            }
            guard type == S_IFSOCK else {
                throw SetupError(description: "\(path) exists and is not a socket; remove it or choose another --socket.")
            }
            if answers(path) {
                throw SetupError(description: "Another flywheeld is already answering at \(path).")
            }
            _ = try Syscall.call("unlink", path) { unlink(path) }  // a stale socket file
        }
        let fd = try Syscall.call("socket", path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var address = try address(path)
            let oldMask = umask(~mode & 0o777)
            defer { umask(oldMask) }
            _ = try Syscall.call("bind", path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
            _ = try Syscall.call("chmod", path) { chmod(path, mode) }
            if let group {
                guard let entry = getgrnam(group) else {
                    throw SetupError(description: "The socket group '\(group)' does not exist on this system.")
                }
                _ = try Syscall.call("chown", path) { chown(path, uid_t.max, entry.pointee.gr_gid) }
            }
            _ = try Syscall.call("listen", path) { listen(fd, 128) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return UnixListener(fd: fd, ownedPath: path)
    }

    /// Accepts one pending client (non-blocking), or nil when none is waiting.
    public func accept() throws(SystemError) -> Int32? {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return client
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, ECONNABORTED: return nil
            default: throw SystemError(function: "accept4", subject: ownedPath ?? "the activated socket", errno: errno)
            }
        }
    }

    /// Closes the socket and removes its file if this process created it.
    public func close() {
        Glibc.close(fd)
        if let ownedPath { unlink(ownedPath) }
    }
}
