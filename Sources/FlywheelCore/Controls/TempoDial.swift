/// The tempo dial: a knob position in detents mapped onto a BPM table, like the Click metronome's
/// circular selector with its values laid out one per detent.
public struct TempoDial: Sendable, Hashable {
    /// The BPM range (default 20–300).
    public let range: ClosedRange<Int>
    /// The detent table.
    public let table: TempoTable
    /// BPM of each detent, increasing.
    public let values: [Int]
    /// What the dial does at its ends (default: the rubber band).
    public let bounds: DialBounds

    /// Creates a dial; `range` must contain at least one value of `table`.
    public init(range: ClosedRange<Int> = 20...300, table: TempoTable = .integer, bounds: DialBounds = .rubber) {
        self.range = range
        self.table = table
        self.bounds = bounds
        let values = table.values(in: range)
        self.values = values.isEmpty ? [range.lowerBound] : values
    }

    /// Detents the dial spans: positions run from 0 to `detentCount - 1`.
    public var detentCount: Int { values.count }

    /// BPM at a detent (clamped to the table).
    public func bpm(atDetent detent: Int) -> Int { values[min(max(detent, 0), values.count - 1)] }

    /// The detent whose BPM is nearest to `bpm` (ties go to the lower).
    public func detent(nearest bpm: Double) -> Int { DialKnob.detent(nearest: bpm, in: values) }
}
