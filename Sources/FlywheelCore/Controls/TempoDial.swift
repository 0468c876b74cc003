/// The tempo dial: a knob position in detents mapped onto a BPM table, like the Click metronome's
/// circular selector with its values laid out one per detent. Values are held in tenths of a BPM,
/// so that a dial of tenths (`resolution` 0.1) and fine control between the table's values (a
/// tenth of a BPM a detent) are the same numbers as whole BPM.
public struct TempoDial: Sendable, Hashable {
    /// The BPM range (default 20–300).
    public let range: ClosedRange<Int>
    /// The detent table.
    package let table: TempoTable
    /// The integer table's step (default 1 BPM; 0.1 for a metronome that wants tenths).
    public let resolution: BPM
    /// Each detent's tempo in tenths of a BPM, increasing.
    public let values: [Int]
    /// What the dial does at its ends (default: the rubber band).
    public let bounds: DialBounds

    /// The resolutions the integer table takes: 0.1, 0.2, 0.5 and 1 BPM (whole tenths that divide a BPM).
    package static let resolutions: [BPM] = [BPM(tenths: 1), BPM(tenths: 2), BPM(tenths: 5), 1]

    /// Creates a dial; `range` must contain at least one value of `table`.
    public init(range: ClosedRange<Int> = 20...300, table: TempoTable = .integer, bounds: DialBounds = .rubber, resolution: BPM = 1) {
        self.range = range
        self.table = table
        self.bounds = bounds
        self.resolution = table == .integer ? resolution : 1
        let values: [Int]
        switch table {
        case .integer: values = Array(stride(from: range.lowerBound * 10, through: range.upperBound * 10, by: max(1, self.resolution.tenths)))
        case .maelzel: values = table.values(in: range).map { $0 * 10 }
        }
        self.values = values.isEmpty ? [range.lowerBound * 10] : values
    }

    /// Detents the dial spans: positions run from 0 to `detentCount - 1`.
    public var detentCount: Int { values.count }

    /// The tempo at a detent (clamped to the table).
    public func bpm(atDetent detent: Int) -> BPM { BPM(tenths: values[min(max(detent, 0), values.count - 1)]) }

    /// The detent whose tempo is nearest to `bpm` (ties go to the lower).
    public func detent(nearest bpm: Double) -> Int { DialKnob.detent(nearest: bpm * 10, in: values) }
}
