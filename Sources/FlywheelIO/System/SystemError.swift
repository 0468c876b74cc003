/// A failed system or C-library call: the errno, the C function and what it was acting on.
///
/// Its description is one full sentence, e.g. "open(2) on /dev/input/event3 failed: Permission
/// denied (EACCES)."
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed, such as `"open"` or `"libevdev_new_from_fd"`.
    public var function: String
    /// The path or object the call acted on.
    public var subject: String
    /// The errno value.
    public var errno: Int32
    /// What to do about it, when the failing code knows more than the errno says (a sentence).
    public var hint: String?
    /// What went wrong when it is not an errno (a name that does not resolve: getaddrinfo's own
    /// message and code); `errno` is then 0.
    public var reason: String?

    /// Creates an error.
    public init(function: String, subject: String, errno: Int32, hint: String? = nil, reason: String? = nil) {
        self.function = function
        self.subject = subject
        self.errno = errno
        self.hint = hint
        self.reason = reason
    }

    /// One sentence naming the function, the subject and the error, then the hint if any.
    public var description: String {
        "\(function) on \(subject) failed: \(reason ?? Errno.describe(errno))." + (hint.map { " " + $0 } ?? "")
    }
}
