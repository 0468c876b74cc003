/// A JSON value with object keys kept in the order they were written, so the same
/// message always encodes to the same bytes.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// An integer, written without a fraction.
    case int(Int)
    /// A finite double (non-finite values encode as `null`: JSON has no NaN).
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

    /// Appends compact JSON text to `out`.
    public func encode(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? JSONValue.format(value) : "null"
        case .number(let text): out += text
        case .string(let text): JSONValue.quote(text, into: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.encode(into: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                JSONValue.quote(pair.0, into: &out)
                out += ":"
                pair.1.encode(into: &out)
            }
            out += "}"
        }
    }

    /// Shortest round-tripping text for a finite double; integral values keep a `.0`-free form.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)  // Swift prints the shortest representation that round-trips, e.g. 1e-05
    }

    static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
