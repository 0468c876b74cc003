/// The rules a tempo dial's range and table must follow, shared by the configuration file and the
/// protocol's `set` so that both accept and refuse the same dials.
public enum TempoRules {
    /// The widest range: BPM from 1 to 1000.
    public static let limits = 1...1000

    /// What is wrong with a range `[low, high]`, or nil when it is fine.
    package static func rangeProblem(low: Int, high: Int) -> String? {
        guard low >= limits.lowerBound, low < high, high <= limits.upperBound else {
            return "must be two whole numbers [low, high] with \(limits.lowerBound) ≤ low < high ≤ \(limits.upperBound), got [\(low),\(high)]"
        }
        return nil
    }

    /// What is wrong with `table` over `range` (it must have a value within it), or nil.
    package static func tableProblem(_ table: TempoTable, in range: ClosedRange<Int>) -> String? {
        table.values(in: range).isEmpty ? "has no value within the range \(range.lowerBound)–\(range.upperBound)" : nil
    }
}
