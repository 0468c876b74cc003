/// Tap tempo from a button: the mean of the last four intervals once three taps have come.
///
/// A run of taps resets after 2 s without a tap, or when an interval jumps by more than 20 %
/// from the mean so far (the player changed their mind: the new interval starts a new run).
package struct TapTempo: Sendable, Hashable {
    /// Taps needed before a tempo is reported (default 3: two intervals).
    package var minimumTaps = 3
    /// Intervals averaged (default 4).
    package var intervalsAveraged = 4
    /// Idle time that resets the run (default 2 s).
    package var resetAfterNanoseconds: Nanoseconds = 2_000_000_000
    /// Largest relative jump of an interval that still continues the run (default 0.2).
    package var maximumJump = 0.2

    var taps: [Nanoseconds] = []

    /// Creates a tap tempo with the defaults.
    package init() {}

    /// Records a tap at `time`; returns the tempo in BPM once enough taps have come.
    package mutating func tap(at time: Nanoseconds) -> Double? {
        if let last = taps.last {
            let interval = time - last
            if interval <= 0 || interval > resetAfterNanoseconds {
                taps = [time]
                return nil
            }
            if let mean = meanInterval, abs(Double(interval) - mean) > maximumJump * mean {
                taps = [last, time]
                return nil
            }
        }
        taps.append(time)
        if taps.count > intervalsAveraged + 1 { taps.removeFirst(taps.count - intervalsAveraged - 1) }
        guard taps.count >= minimumTaps, let mean = meanInterval else { return nil }
        return 60e9 / mean
    }

    /// Mean of the recorded intervals, in nanoseconds.
    var meanInterval: Double? {
        guard taps.count >= 2 else { return nil }
        return Double(taps.last! - taps.first!) / Double(taps.count - 1)
    }
}
