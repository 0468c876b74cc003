import Glibc

/// Where the running program's own file is, from /proc/self/exe rather than argv[0] (which may be a
/// bare name found on PATH, a relative path or a symbolic link).
public enum ExecutablePath {
    /// The program's absolute path with symbolic links resolved.
    public static func current() throws(SystemError) -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try Syscall.call("readlink", "/proc/self/exe") {
            buffer.withUnsafeMutableBytes { readlink("/proc/self/exe", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
        }
        let path = String(decoding: buffer[0..<count], as: UTF8.self)
        // A program whose file was replaced while it runs (a package upgrade) reads "PATH (deleted)".
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(10)) : path
    }

    /// The folder the program's file is in, or nil when /proc is not mounted.
    public static func folder() -> String? {
        guard let path = try? current(), let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
