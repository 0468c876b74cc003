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

extension MonotonicClock {
    /// Sleeps until `deadline` (for real-time playback tools, never inside the daemon's loop).
    public static func sleep(until deadline: Nanoseconds) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
