import CLinux
import FlywheelCore
import Glibc

/// `ppoll(2)` through the seam: a wait on descriptors with a timeout in nanoseconds (the bridges'
/// loop wakes at a MIDI clock tick's own time, not the next millisecond).
public enum Poll {
    /// Waits until one of `fds` is ready or `timeoutNanoseconds` passes (nil: no limit); returns
    /// how many are ready (0: the time ran out). EINTR is retried with the time that is left.
    public static func wait(_ fds: inout [pollfd], timeoutNanoseconds: Nanoseconds?, subject: @autoclosure () -> String) throws(SystemError) -> Int {
        let deadline = timeoutNanoseconds.map { MonotonicClock.now() + max(0, $0) }
        while true {
            var timeout = timespec()
            if let deadline {
                let wait = max(0, deadline - MonotonicClock.now())
                timeout = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            }
            let count = fds.count
            let result = deadline == nil ? CLinux.ppoll(&fds, nfds_t(count), nil, nil) : CLinux.ppoll(&fds, nfds_t(count), &timeout, nil)
            if result >= 0 { return Int(result) }
            let error = Glibc.errno
            if error == EINTR { continue }
            throw SystemError(function: "ppoll", subject: subject(), errno: error)
        }
    }
}
