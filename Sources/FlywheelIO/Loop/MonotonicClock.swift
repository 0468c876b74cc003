import FlywheelCore
import Glibc

/// CLOCK_MONOTONIC, the clock of kernel input timestamps and of every `time` Flywheel reports.
public enum MonotonicClock {
    /// Now, in nanoseconds.
    public static func now() -> Nanoseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Nanoseconds(ts.tv_sec) * 1_000_000_000 + Nanoseconds(ts.tv_nsec)
    }
}
