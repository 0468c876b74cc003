import Glibc

/// An exclusive `flock` on a lock file beside a path: whoever holds it owns the path. The file is
/// opened without following links and never removed (removing it would let two processes lock
/// two different files of the same name).
final class PathLock {
    private var fd: Int32
    let lockPath: String

    /// Takes the lock at `lockPath` for `guarded`, or says who holds it.
    init(lockPath: String, guarding guarded: String) throws {
        self.lockPath = lockPath
        // Readable by everyone, so a second daemon of another user can find the lock taken
        // (rather than failing to open it); flock works on a read-only descriptor.
        let oldMask = umask(0o022)
        let opened = Result { () throws(SystemError) in
            try Syscall.call("open", lockPath) { open(lockPath, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644) }
        }
        umask(oldMask)
        let fd = try opened.get()
        self.fd = fd
        do {
            var info = stat()
            _ = try Syscall.call("fstat", lockPath) { fstat(fd, &info) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw UnixListener.SetupError(description: "\(lockPath) is not a regular file; it is the lock for the socket \(guarded).")
            }
            let result = try Syscall.nonBlocking("flock", lockPath) { flock(fd, LOCK_EX | LOCK_NB) }
            guard case .processed = result else {
                throw UnixListener.SetupError(description: "Another flywheeld owns \(guarded) (it holds the lock \(lockPath)).")
            }
        } catch {
            release()  // closes it once: the lock is whole, so its deinit runs too
            throw error
        }
    }

    /// Releases the lock (closing the descriptor); also when the lock is dropped.
    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
