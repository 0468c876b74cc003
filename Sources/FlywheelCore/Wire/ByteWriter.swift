/// Compact JSON written into a fixed buffer: how a control's event, the message sent most often,
/// is encoded without growing an array (``ServerMessage/init(_:)-(ControlEvent)``, ``Outbox``).
///
/// A writer writes one control event into room for the longest
/// (``ServerMessage/controlEventCapacity``, which its creation checks). The longest event of each
/// kind is 64 bytes shorter than that (`ServerMessageWireTests`), so in a release build a write
/// checks nothing more; a debug build, as the tests run, checks every write against the room.
struct ByteWriter {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    /// A writer over `buffer` (its bytes are overwritten from the start), which must have room for
    /// the longest control event.
    init(_ buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= ServerMessage.controlEventCapacity, "a control event's buffer has only \(buffer.count) bytes")
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// Room for `n` more bytes: always there for a control event (checked in a debug build; a
    /// message longer than its buffer is a bug).
    @inline(__always)
    private func reserve(_ n: Int) {
        assert(count &+ n <= capacity, "a message outgrew its \(capacity)-byte buffer")
    }

    /// Appends `text` (ASCII literal bytes, already JSON: no escaping). The protocol's literals
    /// are short: up to 32 bytes are copied as overlapping 8-byte words, not by a call.
    @inline(__always)
    mutating func write(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        Self.copy(UnsafeRawPointer(text.utf8Start), length, to: base + count)
        count &+= length
    }

    /// Copies `length` bytes from `source` to `target`: up to 32 as words (from each end, so they
    /// overlap rather than run past either), more by `memcpy`.
    @inline(__always)
    static func copy(_ source: UnsafeRawPointer, _ length: Int, to target: UnsafeMutableRawPointer) {
        switch length {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self), tail = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: length &- 8, as: UInt64.self)
        case 17...32:
            let a = source.loadUnaligned(as: UInt64.self), b = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = source.loadUnaligned(fromByteOffset: length &- 16, as: UInt64.self)
            let d = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            target.storeBytes(of: a, as: UInt64.self)
            target.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: c, toByteOffset: length &- 16, as: UInt64.self)
            target.storeBytes(of: d, toByteOffset: length &- 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self), tail = source.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: length &- 4, as: UInt32.self)
        case 0..<4:
            var index = 0
            while index < length {
                target.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
                index &+= 1
            }
        default:
            target.copyMemory(from: source, byteCount: length)
        }
    }

    /// Appends one byte.
    @inline(__always)
    mutating func write(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count &+= 1
    }

    /// Appends `value` in decimal.
    @inline(__always)
    mutating func writeDecimal(_ value: Int) {
        if value < 0 { write(UInt8(ascii: "-")) }
        writeDecimal(UInt64(value.magnitude))
    }

    /// Appends `value` in decimal: its digits counted first, then written from the last, two at
    /// a time, where they belong.
    @inline(__always)
    mutating func writeDecimal(_ value: UInt64) {
        let digits = Self.decimalCount(value)
        reserve(digits)
        Self.writeDigits(value, count: digits, endingAt: base + (count &+ digits))
        count &+= digits
    }

    /// How many decimal digits `value` has (1 for 0).
    @inline(__always)
    static func decimalCount(_ value: UInt64) -> Int {
        var digits = 1
        var bound: UInt64 = 10
        while digits < 20, value >= bound {
            digits &+= 1
            bound &*= 10
        }
        return digits
    }

    /// Writes the last `count` decimal digits of `value` (leading zeros included) so that they end
    /// at `end`.
    @inline(__always)
    static func writeDigits(_ value: UInt64, count: Int, endingAt end: UnsafeMutableRawPointer) {
        let pairs = JSONValue.twoDigits.utf8Start
        var rest = value
        var at = end
        var left = count
        while left >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            at -= 2
            at.storeBytes(of: pairs[pair], as: UInt8.self)
            at.storeBytes(of: pairs[pair &+ 1], toByteOffset: 1, as: UInt8.self)
            left &-= 2
        }
        if left == 1 {
            at -= 1
            at.storeBytes(of: UInt8(truncatingIfNeeded: 0x30 &+ rest % 10), as: UInt8.self)
        }
    }

    /// Appends nanoseconds as ``Swift/Int64/secondsText`` has them: exact seconds, nine digits after the point.
    @inline(__always)
    mutating func writeSeconds(_ nanoseconds: Nanoseconds) {
        if nanoseconds < 0 { write(UInt8(ascii: "-")) }
        let magnitude = UInt64(nanoseconds.magnitude)
        writeDecimal(magnitude / 1_000_000_000)
        reserve(10)
        let fraction = magnitude % 1_000_000_000
        base.storeBytes(of: UInt8(ascii: "."), toByteOffset: count, as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: 0x30 &+ fraction / 100_000_000), toByteOffset: count &+ 1, as: UInt8.self)
        base.storeBytes(of: Self.eightDigits(fraction % 100_000_000).littleEndian, toByteOffset: count &+ 2, as: UInt64.self)
        count &+= 10
    }

    /// The eight decimal digits of `value` (< 10⁸, leading zeros included) as ASCII, the first in
    /// the lowest byte: split into halves of four digits, pairs and digits in the lanes of one
    /// word at once. Dividing a lane by 100 is (x·10486) >> 20 for x < 10⁴, and by 10 is
    /// (x·103) >> 10 for x < 100; no lane's product reaches the next.
    @inline(__always)
    static func eightDigits(_ value: UInt64) -> UInt64 {
        var x = value / 10_000 | (value % 10_000) << 32  // [first four, last four]
        let hundreds = (x &* 10486) >> 20 & 0x0000_007F_0000_007F
        x = hundreds | (x &- hundreds &* 100) << 16  // four lanes of two digits
        let tens = (x &* 103) >> 10 & 0x000F_000F_000F_000F
        x = tens | (x &- tens &* 10) << 8  // eight lanes of one digit
        return x | 0x3030_3030_3030_3030
    }

    /// Appends `value` as ``JSONValue/encode(into:)`` writes a `.double`.
    mutating func writeDouble(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return writeDecimal(Int(value)) }
        let magnitude = abs(value)
        if value.isFinite, magnitude >= 1e-3, magnitude < 1e8 {
            let micro = (magnitude * 1e6).rounded()
            if micro / 1e6 == magnitude {
                // Six decimals or fewer, trailing zeros dropped: what JSONValue.appendDouble writes.
                let micros = UInt64(micro)
                if value < 0 { write(UInt8(ascii: "-")) }
                writeDecimal(micros / 1_000_000)
                write(UInt8(ascii: "."))
                var fraction = micros % 1_000_000, divisor: UInt64 = 100_000
                while divisor > 0, fraction != 0 {
                    write(UInt8(truncatingIfNeeded: 0x30 &+ fraction / divisor))
                    fraction %= divisor
                    divisor /= 10
                }
                return
            }
        }
        var bytes: [UInt8] = []
        JSONValue.appendDouble(value, into: &bytes)
        precondition(count &+ bytes.count <= capacity, "a message outgrew its \(capacity)-byte buffer")
        bytes.withUnsafeBytes { (base + count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        count &+= bytes.count
    }
}
