import Glibc

/// What starting would meet when it makes its socket at a path (``RuntimeDirectory/prepared(forSocket:)``
/// then ``UnixListener/bind(path:mode:group:)``), found without making or changing anything: a
/// path too long for `sun_path` (also inside the private folder the socket is first made in), a
/// folder that is not a directory or that cannot be made, a folder this process may not write
/// in, a link or another file at the path, a lock that is not a regular file. A socket already
/// at the path is no problem here: a running daemon's socket is checked beside it.
public enum SocketPathCheck {
    /// The bytes a socket path may have (`sun_path` with its terminating NUL).
    public static let capacityBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// Why starting could not make its socket at `path`, as a sentence, or nil.
    public static func problem(at path: String) -> String? {
        let bytes = path.utf8.count
        guard bytes < capacityBytes else {
            return "\(path) is \(bytes) bytes long; a Unix socket path must be under \(capacityBytes) bytes."
        }
        let folder = folder(of: path)
        let staging = (folder == "/" ? "" : folder) + "/.fwXXXXXX/s"
        guard staging.utf8.count < capacityBytes else {
            return "the socket is first made at \(staging) (\(staging.utf8.count) bytes) and renamed onto \(path); "
                + "a Unix socket path must be under \(capacityBytes) bytes, so the folder's path must be under \(capacityBytes - 12)."
        }
        if let problem = folderProblem(folder) { return problem }
        switch fileType(path) {
        case nil, S_IFSOCK?: break
        case S_IFLNK?: return "\(path) is a symbolic link; flywheeld does not follow links at its socket path."
        default: return "\(path) exists and is not a socket."
        }
        if let type = fileType(path + ".lock"), type != S_IFREG {
            return "\(path).lock is not a regular file; it is the lock for the socket \(path)."
        }
        return nil
    }

    /// The folder that holds `path` ("." for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The socket's folder: a directory this process may write in, or one it may make (only the
    /// last folder is made, as ``RuntimeDirectory`` does).
    static func folderProblem(_ folder: String) -> String? {
        var info = stat()
        do {
            _ = try Syscall.call("stat", folder) { stat(folder, &info) }
        } catch where error.errno == ENOENT {
            let parent = Self.folder(of: folder)
            guard let type = followedType(parent) else {
                return "\(folder) does not exist, and flywheeld makes only the socket's own folder: \(parent) must exist."
            }
            guard type == S_IFDIR else { return "\(parent) is not a directory." }
            return writeProblem(parent, making: folder)
        } catch where error.errno == ENOTDIR {
            return firstNonDirectory(in: folder).map { "\($0) is not a directory." } ?? error.description
        } catch {
            return error.description
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a directory." }
        return writeProblem(folder, making: nil)
    }

    /// Whether this process may make files in `folder` (for the socket, its lock, or the folder `made`).
    static func writeProblem(_ folder: String, making made: String?) -> String? {
        do {
            _ = try Syscall.call("access", folder) { access(folder, W_OK | X_OK) }
            return nil
        } catch {
            let what = made.map { "make the folder \($0)" } ?? "make the socket and its lock in \(folder)"
            return "this user (uid \(CurrentProcess.userID)) may not \(what): \(error)"
        }
    }

    /// The first leading folder of `path` that exists and is not a directory.
    static func firstNonDirectory(in path: String) -> String? {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty && !path.hasPrefix("/") ? "" : "/") + component
            if let type = followedType(prefix), type != S_IFDIR { return prefix }
        }
        return nil
    }

    /// The file type at `path` without following a link (nil: nothing there).
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard (try? Syscall.call("lstat", path) { lstat(path, &info) }) != nil else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The file type at `path`, following links (nil: nothing there).
    static func followedType(_ path: String) -> mode_t? {
        var info = stat()
        guard (try? Syscall.call("stat", path) { stat(path, &info) }) != nil else { return nil }
        return info.st_mode & S_IFMT
    }
}
