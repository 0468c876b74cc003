/// How tempo dial detents map to beats per minute.
public enum TempoTable: String, Sendable, Hashable, CaseIterable {
    /// One BPM per detent across the range.
    case integer
    /// The traditional Maelzel metronome markings, one per detent.
    case maelzel

    /// The Maelzel markings, 40 to 208.
    package static let maelzelMarkings: [Int] = [
        40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 63, 66, 69, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116,
        120, 126, 132, 138, 144, 152, 160, 168, 176, 184, 192, 200, 208,
    ]

    /// Every BPM value the dial can take within `range`, in increasing order: detent i is `values[i]`.
    public func values(in range: ClosedRange<Int>) -> [Int] {
        switch self {
        case .integer: return Array(range)
        case .maelzel: return TempoTable.maelzelMarkings.filter { range.contains($0) }
        }
    }
}
