import FlywheelCore

/// When a bridge may try to reach a peer again: after each failure the wait doubles, from 0.25 s
/// up to 10 s. It starts over only after a connection that lived ``stableNanoseconds`` (1 s): a
/// peer that greets and drops at once is tried less and less often, not four times a second
/// forever. Time is CLOCK_MONOTONIC nanoseconds, given by the caller.
struct ReconnectBackoff {
    /// How long a connection must have lived for its loss to start the waits over (1 s).
    static let stableNanoseconds: Nanoseconds = 1_000_000_000
    /// The wait after the last failure.
    private(set) var waitSeconds = 0.125
    /// No attempt before this.
    private(set) var nextAttemptNanoseconds: Nanoseconds = 0
    /// When the connection now open was made, if one is.
    private(set) var connectedAt: Nanoseconds?

    /// Whether an attempt may be made at `now`.
    func mayTry(at now: Nanoseconds) -> Bool { now >= nextAttemptNanoseconds }

    /// An attempt failed, or the connection made at ``connected(at:)`` ended, at `now`: returns
    /// the sentence's tail, "retrying in N s.".
    mutating func failed(at now: Nanoseconds) -> String {
        if let since = connectedAt, now - since >= Self.stableNanoseconds { waitSeconds = 0.125 }
        connectedAt = nil
        waitSeconds = min(10, waitSeconds * 2)
        nextAttemptNanoseconds = now + Nanoseconds(waitSeconds * 1e9)
        return "retrying in \(MotionPlot.fixed(waitSeconds, 2)) s."
    }

    /// `reason` as the first half of "REASON; retrying in N s.": a sentence's final period taken off.
    static func clause(_ reason: String) -> String {
        reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }

    /// A connection was made at `now`; the waits start over once it has lived 1 s.
    mutating func connected(at now: Nanoseconds) {
        connectedAt = now
        nextAttemptNanoseconds = 0
    }

    /// An attempt succeeded and needs no time to prove itself (a device reopened).
    mutating func succeeded() {
        waitSeconds = 0.125
        nextAttemptNanoseconds = 0
        connectedAt = nil
    }

    /// Milliseconds a `poll` may wait before the next attempt is due (0 when it is due).
    func pollTimeoutMilliseconds(at now: Nanoseconds) -> Int32 {
        Int32(clamping: max(0, (nextAttemptNanoseconds - now + 999_999) / 1_000_000))
    }
}
