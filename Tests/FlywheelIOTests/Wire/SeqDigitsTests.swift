import FlywheelCore
import Testing
@testable import FlywheelIO

/// A client's seq digits are counted up in place from line to line; they must always spell the
/// seq, whatever it was set to before.
@Suite("Seq digits counted up in place")
struct SeqDigitsTests {
    static func text(_ digits: UnsafeRawBufferPointer) -> String { String(decoding: digits, as: UTF8.self) }

    @Test("counting from 0 to 200,000 spells every number, across every carry (9, 99, 999, …)")
    func countingUp() {
        var digits = SeqDigits()
        #expect(Self.text(digits.digits) == "0")
        for seq in UInt64(1)...200_000 {
            digits.countUp()
            let spelled = Self.text(digits.digits)
            if spelled != String(seq) || digits.value != seq {
                Issue.record("\(seq) spelled \(spelled)")
                return
            }
        }
    }

    @Test("set to any seq (a jump, the same seq twice, going back), then counted up from there, up to the largest and past it to 0")
    func setThenCountUp() {
        var digits = SeqDigits()
        for seq: UInt64 in [0, 1, 2, 9, 10, 10, 8, 99, 100, 101, 5, 999_999, 1_000_000, 9_999_999_999_999_999_999, 0,
                            UInt64.max - 2, UInt64.max - 1, UInt64.max, 7] {
            digits.set(seq)
            #expect(Self.text(digits.digits) == String(seq) && digits.value == seq)
            for step in UInt64(1)...3 {
                digits.countUp()
                let next = seq &+ step
                #expect(Self.text(digits.digits) == String(next) && digits.value == next)
            }
        }
    }
}
