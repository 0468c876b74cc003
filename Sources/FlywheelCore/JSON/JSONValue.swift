/// A JSON value with object keys kept in the order they were written, so the same
/// message always encodes to the same bytes.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// An integer, written without a fraction.
    case int(Int)
    /// A double; a non-finite one (JSON5's `NaN` and `Infinity`, which a configuration refuses by
    /// key) encodes as `null`, since JSON has no NaN.
    case double(Double)
    /// A number already formatted as JSON text, such as an exact `"12.000250000"` time.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// An object as ordered key/value pairs.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.encoded() == rhs.encoded() }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded()) }

    /// Compact JSON text, no trailing newline.
    public func encoded() -> String {
        var out = ""
        encode(into: &out)
        return out
    }

    /// Appends compact JSON text to `out` (the bytes ``encode(into:)-([UInt8])`` writes).
    public func encode(into out: inout String) {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Shortest round-tripping text for a finite double; integral values keep a `.0`-free form.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)  // Swift prints the shortest representation that round-trips, e.g. 1e-05
    }
}
