/// Compact JSON written into a fixed buffer on the stack: how a control's event, the message sent
/// most often, is encoded without growing an array (``ServerMessage/init(_:)-(ControlEvent)``).
/// Every write checks the room left; the buffer is sized for the longest such message.
struct ByteWriter {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    /// A writer over `buffer` (its bytes are overwritten from the start).
    init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// Room for `n` more bytes, or a trap: a message longer than its buffer is a bug.
    private func reserve(_ n: Int) {
        precondition(count &+ n <= capacity, "a message outgrew its \(capacity)-byte buffer")
    }

    /// Appends `text` (ASCII literal bytes, already JSON: no escaping).
    mutating func write(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (base + count).copyMemory(from: text.utf8Start, byteCount: length)
        count &+= length
    }

    /// Appends one byte.
    mutating func write(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count &+= 1
    }

    /// Appends a name known to need no escaping (a raw value of the protocol's enumerations), quoted.
    mutating func writeQuotedName(_ name: String) {
        write(UInt8(ascii: "\""))
        var name = name
        name.withUTF8 { bytes in
            reserve(bytes.count)
            (base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            count &+= bytes.count
        }
        write(UInt8(ascii: "\""))
    }

    /// Appends `value` in decimal.
    mutating func writeDecimal(_ value: Int) {
        if value < 0 { write(UInt8(ascii: "-")) }
        writeDecimal(UInt64(value.magnitude))
    }

    /// Appends `value` in decimal.
    mutating func writeDecimal(_ value: UInt64) {
        reserve(JSONValue.decimalCapacity)
        // Written backwards into the room at the end of the reserved bytes, then moved down.
        let room = UnsafeMutableRawBufferPointer(start: base + count, count: JSONValue.decimalCapacity)
        let digits = JSONValue.writeDecimal(value, into: room)
        (base + count).copyMemory(from: base + count + (JSONValue.decimalCapacity - digits), byteCount: digits)
        count &+= digits
    }

    /// Appends nanoseconds as ``Swift/Int64/secondsText`` has them: exact seconds, nine digits after the point.
    mutating func writeSeconds(_ nanoseconds: Nanoseconds) {
        if nanoseconds < 0 { write(UInt8(ascii: "-")) }
        let magnitude = UInt64(nanoseconds.magnitude)
        writeDecimal(magnitude / 1_000_000_000)
        reserve(10)
        base.storeBytes(of: UInt8(ascii: "."), toByteOffset: count, as: UInt8.self)
        var fraction = magnitude % 1_000_000_000
        var index = count &+ 9
        while index > count {
            base.storeBytes(of: UInt8(truncatingIfNeeded: 0x30 &+ fraction % 10), toByteOffset: index, as: UInt8.self)
            fraction /= 10
            index &-= 1
        }
        count &+= 10
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
        reserve(bytes.count)
        bytes.withUnsafeBytes { (base + count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        count &+= bytes.count
    }
}
