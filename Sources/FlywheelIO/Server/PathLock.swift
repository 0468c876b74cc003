import Glibc

/// An exclusive `flock` on a lock file beside a path: whoever holds it owns the path. The file is
/// opened without following links. A clean exit removes it while still holding the lock
/// (``remove()``), so none is left behind; a process that locked the file just as it was removed
/// sees the path no longer names the file it locked, and locks the one there now. (Without that
/// check, two processes could each hold a lock on a different file of the same name.)
final class PathLock {
    private var fd: Int32
    let lockPath: String
    /// The locked file's device and inode.
    private var identity: (dev_t, ino_t) = (0, 0)
    /// How many times a lock is taken again on a file removed under it before giving up.
    static let attempts = 8

    /// Takes the lock at `lockPath` for `guarded`, or says who holds it. `afterOpen` runs between
    /// each open and its flock (the tests race a removal there).
    init(lockPath: String, guarding guarded: String, afterOpen: () -> Void = {}) throws {
        self.lockPath = lockPath
        fd = -1
        for _ in 0..<Self.attempts {
            let fd = try Self.open(lockPath)
            self.fd = fd
            do {
                var info = stat()
                _ = try Syscall.call("fstat", lockPath) { fstat(fd, &info) }
                guard info.st_mode & S_IFMT == S_IFREG else {
                    throw UnixListener.SetupError(description: "\(lockPath) is not a regular file; it is the lock for the socket \(guarded).")
                }
                identity = (info.st_dev, info.st_ino)
                afterOpen()
                let result = try Syscall.nonBlocking("flock", lockPath) { flock(fd, LOCK_EX | LOCK_NB) }
                guard case .processed = result else {
                    throw UnixListener.SetupError(description: "another flywheeld owns \(guarded) (it holds the lock \(lockPath)).")
                }
            } catch {
                release()  // closes it once: the lock is whole, so its deinit runs too
                throw error
            }
            if namesLockedFile() { return }
            release()  // locked a file its owner removed on the way out: lock the one at the path now
        }
        throw UnixListener.SetupError(description: "\(lockPath) was replaced \(Self.attempts) times while flywheeld took it; is another program removing it?")
    }

    /// Opens (making it if need be) the lock file, readable by everyone, so a second daemon of
    /// another user can find the lock taken (rather than failing to open it); flock works on a
    /// read-only descriptor.
    private static func open(_ lockPath: String) throws(SystemError) -> Int32 {
        let oldMask = umask(0o022)
        defer { umask(oldMask) }
        return try Syscall.call("open", lockPath) { Glibc.open(lockPath, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644) }
    }

    /// Whether the lock path still names the file this lock holds.
    private func namesLockedFile() -> Bool {
        var info = stat()
        return lstat(lockPath, &info) == 0 && info.st_dev == identity.0 && info.st_ino == identity.1
    }

    /// Removes the lock file if the path still names the locked one, then releases the lock: a
    /// clean exit leaves nothing behind, and never removes another process's lock file.
    func remove() {
        guard fd >= 0 else { return }
        if namesLockedFile() { unlink(lockPath) }
        release()
    }

    /// Releases the lock (closing the descriptor); also when the lock is dropped.
    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
