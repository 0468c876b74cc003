/// Decimal digits written into raw memory: a delivered line's seq (``SeqDigits``), a number's
/// digits on the stack. Part of the wire's unsafe boundary (this folder's README).
extension JSONValue {
    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: decimalCapacity) { digits in
            let count = writeDecimal(value, into: UnsafeMutableRawBufferPointer(digits))
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(digits)[(decimalCapacity - count)...]))
        }
    }

    /// Room for any UInt64 in decimal.
    @usableFromInline package static let decimalCapacity = 20

    /// Writes `value`'s decimal digits at the end of `buffer` (at least ``decimalCapacity`` bytes)
    /// and returns how many.
    /// (Inlinable, and one bounds check for the whole buffer: it writes every delivered line's seq.)
    @inlinable
    package static func writeDecimal(_ value: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        precondition(buffer.count >= decimalCapacity, "a decimal needs \(decimalCapacity) bytes")
        let base = buffer.baseAddress!
        let pairs = twoDigits.utf8Start
        var rest = value
        var index = buffer.count
        // Two digits at a time from the table, then the last one or two.
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index &-= 2
            base.storeBytes(of: pairs[pair], toByteOffset: index, as: UInt8.self)
            base.storeBytes(of: pairs[pair &+ 1], toByteOffset: index &+ 1, as: UInt8.self)
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            index &-= 2
            base.storeBytes(of: pairs[pair], toByteOffset: index, as: UInt8.self)
            base.storeBytes(of: pairs[pair &+ 1], toByteOffset: index &+ 1, as: UInt8.self)
        } else {
            index &-= 1
            base.storeBytes(of: UInt8(truncatingIfNeeded: 0x30 &+ rest), toByteOffset: index, as: UInt8.self)
        }
        return buffer.count &- index
    }

    /// "00" to "99", each pair of digits at twice its value.
    @usableFromInline
    static let twoDigits: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}
