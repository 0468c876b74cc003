import FlywheelCore

/// A client's seq and its decimal digits, kept together: the next seq is the last one plus one,
/// so its digits are the last ones counted up in place (a digit or two changes, a carry now and
/// then) rather than written out again by division for every delivered line.
struct SeqDigits: ~Copyable {
    static let capacity = JSONValue.decimalCapacity
    /// The digits, right-aligned: they run from `start` to the end of the buffer.
    private let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    private var start: UnsafeMutablePointer<UInt8>
    /// The seq: the number the digits spell.
    private(set) var value: UInt64 = 0

    /// Seq 0.
    init() {
        start = base + (Self.capacity - 1)
        start.pointee = UInt8(ascii: "0")
    }

    deinit { base.deallocate() }

    /// The digits of ``value`` (valid until the next change).
    @inline(__always)
    var digits: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: base + Self.capacity - start) }

    /// The seq is now `seq`: its digits written out.
    mutating func set(_ seq: UInt64) {
        let count = JSONValue.writeDecimal(seq, into: UnsafeMutableRawBufferPointer(start: base, count: Self.capacity))
        start = base + (Self.capacity - count)
        value = seq
    }

    /// The next seq: one more, its digits counted up from the last (after the largest seq, 0).
    @inline(__always)
    mutating func countUp() {
        value &+= 1
        guard value != 0 else { return set(0) }
        // The last digit that is not 9 goes up, the 9s after it become 0s, and when every digit
        // was 9 a 1 goes in front (never past the buffer: a UInt64 of all 9s has 19 digits).
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
