/// One OSC 1.0 message: an address pattern and arguments, encoded by hand (big-endian 32-bit
/// numbers, strings NUL-terminated and padded to a multiple of four bytes).
struct OSCMessage: Equatable {
    /// An argument: `f` (float32), `i` (int32) or `s` (string).
    enum Argument: Equatable {
        case float(Float)
        case int(Int32)
        case string(String)

        var tag: UInt8 {
            switch self {
            case .float: return UInt8(ascii: "f")
            case .int: return UInt8(ascii: "i")
            case .string: return UInt8(ascii: "s")
            }
        }
    }

    var address: String
    var arguments: [Argument]

    init(_ address: String, _ arguments: [Argument]) {
        self.address = address
        self.arguments = arguments
    }

    /// The packet's bytes.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        Self.append(string: address, to: &out)
        Self.append(string: "," + String(decoding: arguments.map(\.tag), as: UTF8.self), to: &out)
        for argument in arguments {
            switch argument {
            case .float(let value): Self.append(bigEndian: value.bitPattern, to: &out)
            case .int(let value): Self.append(bigEndian: UInt32(bitPattern: value), to: &out)
            case .string(let value): Self.append(string: value, to: &out)
            }
        }
        return out
    }

    static func append(string: String, to out: inout [UInt8]) {
        out += string.utf8.filter { $0 != 0 }
        out += [UInt8](repeating: 0, count: 4 - out.count % 4)  // at least one NUL, then to the boundary
    }

    static func append(bigEndian value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}
