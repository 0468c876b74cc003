import Glibc

/// A small file of state the daemon keeps across restarts and power cuts (`/var/lib/flywheel/state`),
/// read and replaced through the ``Syscall`` seam.
///
/// Replaced atomically: the new contents go to a temporary file in the same directory (`.NAME.new`),
/// which is synced, renamed over the file and the directory synced, so after a cut at any instant
/// the file is the old contents or the new, never empty or torn. Read as data, never followed: a
/// symbolic link, a directory, a FIFO or a file over the limit is refused, with a sentence.
public enum StateFile {
    /// The temporary file a replacement is written to first: beside `path`, hidden, named for this
    /// process (`.state.PID.new`), so two daemons given one state file never write into each
    /// other's half-written file; each rename is whole, and the last one wins.
    public static func temporaryPath(for path: String) -> String {
        let suffix = ".\(CurrentProcess.processID).new"
        guard let slash = path.lastIndex(of: "/") else { return "." + path + suffix }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + suffix
    }

    /// Whether `path` and `other` name one file that exists (the same device and inode).
    public static func isSameFile(_ path: String, as other: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(path, &first) == 0, stat(other, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The directory that holds `path` (its rename is made durable by syncing it).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file's bytes; nil when there is no file. At most `limitBytes`: a longer one is refused
    /// after reading one byte past the limit.
    public static func read(_ path: String, limitBytes: Int) throws(StateFileError) -> [UInt8]? {
        do {
            return try FileSystem.readRegularFile(path, limitBytes: limitBytes, followingLinks: false)
        } catch {
            switch error {
            case .system(let failure) where failure.errno == ENOENT: return nil
            case .system(let failure) where failure.errno == ELOOP: throw .symbolicLink(path: path)
            case .system(let failure): throw .system(failure)
            case .notRegular: throw .notRegular(path: path)
            case .tooLarge: throw .tooLarge(path: path, limitBytes: limitBytes)
            }
        }
    }

    /// Replaces the file's contents with `bytes`, atomically and durably (see ``StateFile``).
    ///
    /// Only a state file is ever replaced: what is at `path` must be nothing, a regular file, a
    /// symbolic link (replaced, never followed), a FIFO or an empty directory; a device node or a
    /// socket (`--state /dev/null`, or the daemon's own socket by mistake) is refused, untouched.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFCHR || kind == S_IFBLK || kind == S_IFSOCK {
                throw SystemError(function: "rename", subject: path, errno: EEXIST, hint: "It is a device or a socket, not a state file: flywheeld replaces only a file of its own.")
            }
        }
        let temporary = temporaryPath(for: path)
        let fd = try Syscall.call("open", temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o644)
        }
        do {
            var offset = 0
            while offset < bytes.count {
                offset += try Syscall.call("write", temporary) {
                    bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                }
            }
            _ = try Syscall.call("fsync", temporary) { fsync(fd) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        _ = try Syscall.call("close", temporary) { close(fd) }
        do {
            do {
                _ = try Syscall.call("rename", path) { rename(temporary, path) }
            } catch where error.errno == EISDIR {
                // An empty directory where the file belongs (made by mistake) gives way to it;
                // one with something in it stays, and the write fails.
                _ = try Syscall.call("rmdir", path) { rmdir(path) }
                _ = try Syscall.call("rename", path) { rename(temporary, path) }
            }
        } catch {
            unlink(temporary)
            throw error
        }
        let directory = directory(of: path)
        let directoryFD = try Syscall.call("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(directoryFD) }
        _ = try Syscall.call("fsync", directory) { fsync(directoryFD) }
    }
}

/// Why ``StateFile/read(_:limitBytes:)`` refused a file, as one sentence.
public enum StateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call failed.
    case system(SystemError)
    /// A symbolic link (a state file is never followed).
    case symbolicLink(path: String)
    /// Not a regular file (a device, FIFO, socket or directory).
    case notRegular(path: String)
    /// Longer than the limit.
    case tooLarge(path: String, limitBytes: Int)

    public var description: String {
        switch self {
        case .system(let error): return error.description
        case .symbolicLink(let path): return "\(path) is a symbolic link, which a state file never is."
        case .notRegular(let path): return "\(path) is not a regular file (a directory, device, FIFO or socket)."
        case .tooLarge(let path, let limit): return "\(path) is longer than \(limit) bytes, the most a state file is."
        }
    }
}
