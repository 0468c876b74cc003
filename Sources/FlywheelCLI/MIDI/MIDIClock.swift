import FlywheelCore

/// When MIDI clock ticks (24 a quarter note) are due, drift-free: tick k of a tempo is at
/// `anchor + k·period`, computed from the anchor rather than added up, so rounding never
/// accumulates. A tempo change retimes the next tick (one new period after the last one sent),
/// never the past ones.
struct MIDIClock {
    /// When tick 0 of the current tempo was (or is) due.
    private(set) var anchorNanoseconds: Nanoseconds
    /// Nanoseconds between ticks at the current tempo.
    private(set) var periodNanoseconds: Double
    /// Ticks of the current tempo sent so far.
    private(set) var sent: Int64 = 0

    /// A clock whose first tick is due at `start`.
    init(bpm: Double, start: Nanoseconds) {
        anchorNanoseconds = start
        periodNanoseconds = Self.period(bpm: bpm)
    }

    static func period(bpm: Double) -> Double { 60e9 / (max(bpm, 1) * 24) }

    /// When tick `index` of the current tempo is due.
    func due(_ index: Int64) -> Nanoseconds { anchorNanoseconds + Nanoseconds((Double(index) * periodNanoseconds).rounded()) }

    /// When the next tick is due.
    var nextTick: Nanoseconds { due(sent) }

    /// The ticks due by `now` (each counted as sent).
    mutating func ticks(dueBy now: Nanoseconds) -> Int {
        var count = 0
        while nextTick <= now {
            sent += 1
            count += 1
        }
        return count
    }

    /// A new tempo: the next tick comes one new period after the last tick sent (or at the
    /// anchor, when none was).
    mutating func setTempo(bpm: Double) {
        let period = Self.period(bpm: bpm)
        guard period != periodNanoseconds else { return }
        if sent > 0 {
            let last = due(sent - 1)
            anchorNanoseconds = last
            sent = 1
        }
        periodNanoseconds = period
    }
}
