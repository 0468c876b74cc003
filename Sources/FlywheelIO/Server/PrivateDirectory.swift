import Glibc

/// A directory of mode 0700 made beside a path (same directory, so a `rename` from it onto the
/// path is atomic), where a socket is bound and given its group before it appears at the path.
struct PrivateDirectory {
    let path: String
    /// Where the socket is bound inside it.
    var socketPath: String { path + "/s" }

    /// Makes `.fwXXXXXX` in the directory of `target`.
    init(beside target: String) throws(SystemError) {
        let parent = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
        var template = Array(((parent.isEmpty ? "" : parent) + "/.fwXXXXXX").utf8CString)
        let made = try Syscall.pointer("mkdtemp", parent.isEmpty ? "/" : parent) { template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } }
        path = String(cString: made)
    }

    /// Removes the socket's link if it is still here (after a failure) and the directory.
    func remove() {
        unlink(socketPath)
        rmdir(path)
    }
}
