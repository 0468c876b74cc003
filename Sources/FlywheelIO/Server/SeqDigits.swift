import FlywheelCore

/// A client's seq in decimal, kept from line to line: the next seq is the last one plus one, so
/// its digits are the last ones counted up in place (a digit or two changes, a carry now and
/// then) rather than written out again by division for every delivered line.
struct SeqDigits: ~Copyable {
    static let capacity = JSONValue.decimalCapacity
    /// The digits, right-aligned: they run from `start` to the end of the buffer.
    private let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    private var start: UnsafeMutablePointer<UInt8>
    /// The number the digits spell.
    private(set) var value: UInt64 = 0

    /// Digits for 0.
    init() {
        start = base + (Self.capacity - 1)
        start.pointee = UInt8(ascii: "0")
    }

    deinit { base.deallocate() }

    /// The digits of `seq` (valid until the next call): counted up from the last when it is one
    /// more, written out when it is anything else.
    @inline(__always)
    mutating func digits(of seq: UInt64) -> UnsafeRawBufferPointer {
        if seq == value &+ 1 && seq != 0 {
            countUp()
        } else if seq != value {
            let count = JSONValue.writeDecimal(seq, into: UnsafeMutableRawBufferPointer(start: base, count: Self.capacity))
            start = base + (Self.capacity - count)
        }
        value = seq
        return UnsafeRawBufferPointer(start: start, count: base + Self.capacity - start)
    }

    /// Adds one to the digits: the last digit that is not 9 goes up, the 9s after it become 0s,
    /// and when every digit was 9 a 1 goes in front.
    @inline(__always)
    private mutating func countUp() {
        var digit = base + (Self.capacity - 1)
        while digit.pointee == UInt8(ascii: "9") {
            digit.pointee = UInt8(ascii: "0")
            if digit == start {
                start -= 1
                start.pointee = UInt8(ascii: "1")
                return
            }
            digit -= 1
        }
        digit.pointee &+= 1
    }
}
