import Glibc

/// errno values Flywheel treats specially, and their descriptions.
public enum Errno {
    /// `strerror` text plus the symbolic name where Flywheel knows it: "No such file or directory (ENOENT)".
    public static func describe(_ value: Int32) -> String {
        let text = String(cString: strerror(value))
        if let name = names[value] { return "\(text) (\(name))" }
        return "\(text) (errno \(value))"
    }

    static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST",
        ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", EMFILE: "EMFILE",
        ENFILE: "ENFILE", ENOSPC: "ENOSPC", EPIPE: "EPIPE", ELOOP: "ELOOP", ENAMETOOLONG: "ENAMETOOLONG",
        ECONNREFUSED: "ECONNREFUSED", EADDRINUSE: "EADDRINUSE", ECONNRESET: "ECONNRESET", ENOTTY: "ENOTTY", EROFS: "EROFS",
        EOPNOTSUPP: "EOPNOTSUPP", ENOBUFS: "ENOBUFS", EHOSTUNREACH: "EHOSTUNREACH", ETIMEDOUT: "ETIMEDOUT",
        ENETUNREACH: "ENETUNREACH", EINPROGRESS: "EINPROGRESS",
    ]
}
