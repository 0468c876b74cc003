import Glibc

/// This process's scheduling, through the seam: a real-time policy for a process whose output is
/// timed (the MIDI clock), so that other processes' work delays its wake-ups less.
public enum RealtimeScheduling {
    /// The priorities SCHED_FIFO takes.
    public static let priorities: ClosedRange<Int> = 1...99

    /// Runs this process under SCHED_FIFO at `priority` (1–99). Needs root, CAP_SYS_NICE or an
    /// RLIMIT_RTPRIO of at least `priority` (EPERM otherwise).
    public static func useFIFO(priority: Int) throws(SystemError) {
        var parameters = sched_param(sched_priority: Int32(min(max(priority, priorities.lowerBound), priorities.upperBound)))
        _ = try Syscall.call("sched_setscheduler", "this process (SCHED_FIFO, priority \(priority))") {
            sched_setscheduler(0, SCHED_FIFO, &parameters)
        }
    }
}
