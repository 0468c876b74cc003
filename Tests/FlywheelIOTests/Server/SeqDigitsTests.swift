import FlywheelCore
import Testing
@testable import FlywheelIO

/// A client's seq digits are counted up in place from line to line; they must always spell the
/// seq, whatever order the seqs come in.
@Suite("Seq digits counted up in place")
struct SeqDigitsTests {
    static func text(_ digits: UnsafeRawBufferPointer) -> String { String(decoding: digits, as: UTF8.self) }

    @Test("counting from 1 to 200,000 spells every number, across every carry (9, 99, 999, …)")
    func countingUp() {
        var digits = SeqDigits()
        for seq in UInt64(1)...200_000 {
            let spelled = Self.text(digits.digits(of: seq))
            if spelled != String(seq) {
                Issue.record("\(seq) spelled \(spelled)")
                return
            }
        }
    }

    @Test("a jump (a seq used by a queued line or an error), the same seq twice, going back, and the largest seqs")
    func jumps() {
        var digits = SeqDigits()
        for seq: UInt64 in [0, 1, 2, 9, 10, 10, 8, 99, 100, 101, 5, 999_999, 1_000_000, 1_000_001, 0, 1,
                            UInt64.max - 2, UInt64.max - 1, UInt64.max, 7, 8] {
            #expect(Self.text(digits.digits(of: seq)) == String(seq))
        }
    }
}
