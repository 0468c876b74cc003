/// A tempo in beats per minute, to a tenth: what the tempo dial holds and the wire carries
/// (`"bpm":92.5`, and `"bpm":120` for a whole tempo).
public struct BPM: Sendable, Hashable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Tenths of a beat per minute (925 for 92.5).
    public var tenths: Int

    /// A tempo of `tenths` tenths of a BPM.
    public init(tenths: Int) { self.tenths = tenths }

    /// A whole tempo.
    public init(integerLiteral value: Int) { tenths = value * 10 }

    /// `value` to the nearest tenth.
    public init(_ value: Double) { tenths = Int((value * 10).rounded()) }

    /// Beats per minute.
    public var value: Double { Double(tenths) / 10 }

    /// Whether it is a whole number of BPM.
    package var isWhole: Bool { tenths % 10 == 0 }

    /// `92.5`, or `120` for a whole tempo.
    public var description: String {
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    public static func < (lhs: BPM, rhs: BPM) -> Bool { lhs.tenths < rhs.tenths }
}

extension BPM {
    /// The tempo as JSON: an integer when whole, else a number with one decimal.
    public var json: JSONValue { isWhole ? .int(tenths / 10) : .double(value) }
}
