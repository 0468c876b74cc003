import Glibc

/// This process, through the seam: who it runs as, and how it ends.
public enum CurrentProcess {
    /// The real user id.
    public static var userID: UInt32 { getuid() }
    /// The process id.
    public static var processID: Int32 { getpid() }
    /// Whether it runs as root.
    public static var isRoot: Bool { getuid() == 0 }

    /// Writes to a closed socket fail with EPIPE instead of killing the process.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

/// The system's groups (/etc/group and NSS), through the seam.
public enum SystemGroups {
    /// The id of the group `name`, or nil when there is no such group.
    public static func id(named name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }
}

/// The signals the daemon handles.
public enum ProcessSignal: Int32, Sendable, CaseIterable {
    /// Reload the configuration.
    case hangup = 1
    /// Stop (Ctrl-C).
    case interrupt = 2
    /// Stop (systemd, kill).
    case terminate = 15
}

extension SignalSource {
    /// A signalfd for `signals`.
    public convenience init(_ signals: [ProcessSignal]) throws(SystemError) {
        try self.init(signals.map(\.rawValue))
    }
}
