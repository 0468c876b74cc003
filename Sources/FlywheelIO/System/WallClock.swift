import FlywheelCore
import Glibc

/// CLOCK_REALTIME and the local time of day, for times a person reads (`flywheel watch --wall-clock`).
public enum WallClock {
    /// Now, in nanoseconds since the epoch.
    public static func now() -> Nanoseconds {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Nanoseconds(ts.tv_sec) * 1_000_000_000 + Nanoseconds(ts.tv_nsec)
    }

    /// The local time of day of `nanoseconds` since the epoch, as `HH:MM:SS.mmm`.
    public static func timeOfDay(_ nanoseconds: Nanoseconds) -> String {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let millis = Int((nanoseconds % 1_000_000_000) / 1_000_000)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let m = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(m)"
    }
}
