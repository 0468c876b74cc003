import CLinux
import Glibc

/// A listening Unix stream socket: bound at a path (replacing a stale socket file, refusing a
/// symlink or a live daemon), or adopted from systemd socket activation.
public final class UnixListener {
    /// The listening descriptor (non-blocking).
    public let fd: Int32
    /// The path, when this process bound it (and must remove it on exit).
    public let ownedPath: String?

    /// The device and inode of the socket file this process made: the path is removed on exit
    /// only if it still names this file.
    let inode: (dev_t, ino_t)?
    /// The lock that makes this process the path's owner.
    let lock: PathLock?

    init(fd: Int32, ownedPath: String?, inode: (dev_t, ino_t)? = nil, lock: PathLock? = nil) {
        self.fd = fd
        self.ownedPath = ownedPath
        self.inode = inode
        self.lock = lock
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
            throw SetupError(description: "the socket path \(path) is \(bytes.count) bytes long; a Unix socket path must be under \(capacity).")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }

    /// What a probe `connect()` says about a socket file: only ECONNREFUSED means nobody listens.
    enum Liveness: Equatable { case answers, stale, unknown(Int32) }

    static func probe(_ path: String) -> Liveness {
        guard var address = try? address(path) else { return .unknown(ENAMETOOLONG) }
        guard let probe = try? Syscall.call("socket", path, { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }) else {
            return .unknown(EMFILE)
        }
        defer { Glibc.close(probe) }
        do {
            _ = try Syscall.call("connect", path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
            return .answers
        } catch {
            return error.errno == ECONNREFUSED ? .stale : .unknown(error.errno)
        }
    }

    /// Binds and listens at `path` with permission `mode` and, if given, group `group`.
    ///
    /// Ownership of the path is decided by an exclusive `flock` on `PATH.lock` (held for the
    /// process's life and removed at its clean end, see ``PathLock``). The socket
    /// is made in a private directory beside the path (mode 0700, so nobody can swap it for a link),
    /// given its mode through the umask at `bind()` and its group by `lchown`, then renamed onto the
    /// path: the path never shows a socket with the wrong owner or mode, and no permission call
    /// ever acts on a path someone else controls. A socket file already at the path is replaced
    /// only when `connect()` to it fails with ECONNREFUSED (stale).
    public static func bind(path: String, mode: mode_t = 0o660, group: String? = nil) throws -> UnixListener {
        var groupID: gid_t?
        if let group {
            guard let id = SystemGroups.id(named: group) else {
                throw SetupError(description: "the socket group '\(group)' does not exist on this system.")
            }
            groupID = id
        }
        _ = try address(path)  // the length check, before anything is made
        let lock = try PathLock(lockPath: path + ".lock", guarding: path)
        do {
            return try bind(path: path, mode: mode, groupID: groupID, lock: lock)
        } catch {
            lock.remove()  // a refused start leaves no lock file behind either
            throw error
        }
    }

    /// The rest of ``bind(path:mode:group:)``, with the path's lock held.
    private static func bind(path: String, mode: mode_t, groupID: gid_t?, lock: PathLock) throws -> UnixListener {
        var info = stat()
        if lstat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFLNK {
                throw SetupError(description: "\(path) is a symbolic link; flywheeld does not follow links at its socket path.")
            }
            guard type == S_IFSOCK else {
                throw SetupError(description: "\(path) exists and is not a socket; remove it or choose another --socket.")
            }
            switch probe(path) {
            case .answers:
                throw SetupError(description: "another flywheeld is already answering at \(path).")
            case .unknown(let error):
                throw SetupError(description: "\(path) is a socket whose owner could not be checked (connect: \(Errno.describe(error))); flywheeld replaces only a socket that refuses connections.")
            case .stale:
                break  // replaced by the rename below
            }
        }
        let directory = try PrivateDirectory(beside: path)
        defer { directory.remove() }
        let fd = try Syscall.call("socket", path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var address = try address(directory.socketPath)
            let oldMask = umask(~mode & 0o777)
            let bound = Result { () throws(SystemError) in
                try Syscall.call("bind", directory.socketPath) {
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                    }
                }
            }
            umask(oldMask)
            _ = try bound.get()
            if let groupID {
                _ = try Syscall.call("lchown", directory.socketPath) { lchown(directory.socketPath, uid_t.max, groupID) }
            }
            var made = stat()
            _ = try Syscall.call("lstat", directory.socketPath) { lstat(directory.socketPath, &made) }
            _ = try Syscall.call("listen", path) { listen(fd, 128) }
            _ = try Syscall.call("rename", path) { rename(directory.socketPath, path) }
            return UnixListener(fd: fd, ownedPath: path, inode: (made.st_dev, made.st_ino), lock: lock)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Accepts one pending client (non-blocking, close-on-exec), or nil when none is waiting.
    public func accept() throws(SystemError) -> Int32? {
        while true {
            do {
                let result = try Syscall.nonBlocking("accept4", ownedPath ?? "the activated socket") {
                    accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
                guard case .processed(let client) = result else { return nil }
                return client
            } catch {
                if error.errno == ECONNABORTED { continue }  // gone before it was accepted
                throw error
            }
        }
    }

    /// Closes the socket and removes its file if this process created it and the path still
    /// names that file (another daemon may own the path now). The lock file goes last, removed the
    /// same way (``PathLock/remove()``).
    public func close() {
        Glibc.close(fd)
        if let ownedPath, let inode {
            var info = stat()
            if lstat(ownedPath, &info) == 0, info.st_dev == inode.0, info.st_ino == inode.1 { unlink(ownedPath) }
        }
        lock?.remove()
    }
}
