import Glibc

/// The folder a daemon's socket lives in, such as /run/flywheel, made when it is missing.
public enum RuntimeDirectory {
    /// Makes the folder that holds `socketPath` when it does not exist, with mode 0755 whatever the
    /// umask (clients of other users must reach the socket inside it), and returns `socketPath`.
    /// Only the last folder is made: the one above it must exist. A folder that exists, or a
    /// symbolic link to one, is left as it is; a dangling symbolic link is never followed (mkdir does
    /// not follow it, and the new folder is opened with O_NOFOLLOW before its mode is set).
    public static func prepared(forSocket socketPath: String) throws(SystemError) -> String {
        guard let slash = socketPath.lastIndex(of: "/"), slash != socketPath.startIndex else { return socketPath }
        let folder = String(socketPath[..<slash])
        var info = stat()
        if stat(folder, &info) == 0 { return socketPath }
        do {
            _ = try Syscall.call("mkdir", folder) { mkdir(folder, 0o755) }
        } catch where error.errno == EEXIST && stat(folder, &info) == 0 {
            return socketPath  // made by someone else meanwhile
        }
        let fd = try Syscall.call("open", folder) { open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        defer { close(fd) }
        _ = try Syscall.call("fchmod", folder) { fchmod(fd, 0o755) }
        return socketPath
    }
}
