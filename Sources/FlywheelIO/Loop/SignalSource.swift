import CLinux
import Glibc

/// Signals delivered as readable events on a signalfd (they are blocked for normal delivery).
public final class SignalSource {
    /// The descriptor to register with the loop.
    public let fd: Int32

    /// Blocks `signals` and opens a signalfd for them. Call before any thread starts.
    public init(_ signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        _ = try Syscall.call("sigprocmask", "the daemon's signals") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fd = try Syscall.call("signalfd", "the daemon's signals") { signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
    }

    deinit { close(fd) }

    /// Reads the pending signals (numbers), without blocking.
    public func drain() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}
