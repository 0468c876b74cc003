import FlywheelCore

/// When a bridge may try to reach a peer again: after each failure the wait doubles, from 0.25 s
/// up to 10 s; a success starts over. Time is CLOCK_MONOTONIC nanoseconds, given by the caller.
struct ReconnectBackoff {
    /// The wait after the last failure.
    private(set) var waitSeconds = 0.125
    /// No attempt before this.
    private(set) var nextAttemptNanoseconds: Nanoseconds = 0

    /// Whether an attempt may be made at `now`.
    func mayTry(at now: Nanoseconds) -> Bool { now >= nextAttemptNanoseconds }

    /// An attempt failed at `now`: returns the sentence's tail, "retrying in N s.".
    mutating func failed(at now: Nanoseconds) -> String {
        waitSeconds = min(10, waitSeconds * 2)
        nextAttemptNanoseconds = now + Nanoseconds(waitSeconds * 1e9)
        return "retrying in \(MotionPlot.fixed(waitSeconds, 2)) s."
    }

    /// `reason` as the first half of "REASON; retrying in N s.": a sentence's final period taken off.
    static func clause(_ reason: String) -> String {
        reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }

    /// An attempt succeeded.
    mutating func succeeded() {
        waitSeconds = 0.125
        nextAttemptNanoseconds = 0
    }

    /// Milliseconds a `poll` may wait before the next attempt is due (0 when it is due).
    func pollTimeoutMilliseconds(at now: Nanoseconds) -> Int32 {
        Int32(clamping: max(0, (nextAttemptNanoseconds - now + 999_999) / 1_000_000))
    }
}
