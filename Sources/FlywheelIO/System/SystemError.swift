import Glibc
import Synchronization

/// A failed system or C-library call: the errno, the C function and what it was acting on.
///
/// Its description is one sentence in the user's words, e.g. "cannot open /dev/input/event3:
/// Permission denied (EACCES)."; with ``namesFunctions`` (`--verbose`) the C function instead,
/// "open on /dev/input/event3 failed: Permission denied (EACCES).".
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

    /// Whether descriptions name the C function that failed (`--verbose`); set once at start.
    public static let namesFunctions = Atomic<Bool>(false)

    /// One sentence: what could not be done to the subject (or, with ``namesFunctions``, the
    /// function that failed on it) and the error, then the hint if any.
    public var description: String { sentence(namingFunction: Self.namesFunctions.load(ordering: .relaxed)) }

    /// The description, naming the C function or not.
    public func sentence(namingFunction: Bool) -> String {
        let failed = namingFunction ? "\(function) on \(subject) failed" : "cannot " + Self.action(function, subject)
        return "\(failed): \(reason ?? Errno.describe(errno))." + ((hint ?? Self.fix(function, errno)).map { " " + $0 } ?? "")
    }

    /// The fix for a failure whose cause is common and known, when the caller gave no hint.
    static func fix(_ function: String, _ errno: Int32) -> String? {
        guard function == "libevdev_uinput_create_from_device" else { return nil }
        switch errno {
        case ENOENT, ENODEV: return "Load the uinput module: sudo modprobe uinput."
        case EACCES, EPERM: return "Give this user write access to /dev/uinput (the package's uinput group), or run it with sudo."
        default: return nil
        }
    }

    /// What `function` does to `subject`, as the words after "cannot".
    static func action(_ function: String, _ subject: String) -> String {
        switch function {
        case "libevdev_new", "libevdev_new_from_fd": return "read \(subject) as an input device"
        case let name where name.hasPrefix("gpiod_chip_open") && subject.hasPrefix("the "): return "open \(subject)"
        default: return verb(function) + " " + subject
        }
    }

    /// What `function` does, as the words after "cannot" and before its subject.
    static func verb(_ function: String) -> String {
        switch function {
        case "open": return "open"
        case "opendir": return "read the folder"
        case "read", "recv": return "read"
        case "write", "send", "sendmsg", "libevdev_uinput_write_event": return "write to"
        case "connect": return "connect to"
        case "poll", "ppoll", "epoll_wait": return "wait on"
        case "socket": return "make a socket for"
        case "bind": return "bind a socket at"
        case "listen": return "listen on"
        case "accept4": return "accept a client on"
        case "getsockopt": return "ask who is at"
        case "shutdown": return "end the connection to"
        case "rename": return "replace"
        case "stat", "lstat", "fstat", "access": return "look at"
        case "readlink": return "read the link"
        case "mkdir": return "make the folder"
        case "mkdtemp": return "make a folder in"
        case "rmdir": return "remove the folder"
        case "fsync": return "save to disk"
        case "flock": return "lock"
        case "lchown": return "give the group to"
        case "fchmod": return "set the mode of"
        case "close": return "close"
        case "fcntl": return "set up"
        case "posix_spawn": return "start"
        case "getaddrinfo": return "find the address of"
        case "sched_setscheduler": return "raise the priority of"
        case "inotify_add_watch": return "watch"
        case "pipe": return "make a pipe for"
        case "inotify_init1", "epoll_create1", "epoll_ctl", "timerfd_create", "timerfd_settime", "signalfd", "sigprocmask": return "set up"
        case "libevdev_next_event": return "read the events of"
        case "libevdev_set_clock_id": return "set the event clock of"
        case "libevdev_grab": return "take for itself (grab)"
        case "libevdev_uinput_create_from_device": return "make a virtual input device with"
        case let name where name.hasPrefix("gpiod_chip_open"): return "open the GPIO chip"
        case "gpiod_chip_find_line", "gpiod_chip_get_line_offset_from_name": return "find the line"
        case let name where name.hasPrefix("gpiod_") && (name.contains("request_lines") || name.contains("request_both") || name.contains("settings")
            || name.contains("line_config")): return "request"
        case let name where name.hasPrefix("gpiod_"): return "read"
        default: return "use"
        }
    }
}
