import Testing
@testable import FlywheelCore

@Suite("Transition table")
struct TransitionTableTests {
    // Every one of the 16 transitions, written out by hand from the Gray order 00 → 10 → 11 → 01 → 00.
    static let expected: [(from: String, to: String, move: Transition)] = [
        ("00", "00", .none), ("00", "10", .forward), ("00", "11", .invalid), ("00", "01", .backward),
        ("10", "00", .backward), ("10", "10", .none), ("10", "11", .forward), ("10", "01", .invalid),
        ("11", "00", .invalid), ("11", "10", .backward), ("11", "11", .none), ("11", "01", .forward),
        ("01", "00", .forward), ("01", "10", .invalid), ("01", "11", .backward), ("01", "01", .none),
    ]

    static func levels(_ text: String) -> QuadratureLevels {
        QuadratureLevels(a: text.first == "1", b: text.last == "1")
    }

    @Test("each of the 16 entries", arguments: 0..<16)
    func entry(_ index: Int) {
        let row = Self.expected[index]
        #expect(TransitionTable.move(from: Self.levels(row.from), to: Self.levels(row.to)) == row.move,
                "\(row.from) → \(row.to)")
    }

    @Test("every double transition is invalid and moves nothing")
    func doubles() {
        let pairs = [("00", "11"), ("11", "00"), ("10", "01"), ("01", "10")]
        for (from, to) in pairs {
            var decoder = QuadratureDecoder(stepsPerDetent: .one, initial: Self.levels(from))
            let fired = decoder.feed(Self.levels(to))
            #expect(fired == 0)
            #expect(decoder.quarterSteps == 0)
            #expect(decoder.invalidTransitions == 1)
            #expect(decoder.validTransitions == 0)
        }
    }

    @Test("phase and atPhase are inverses; the cycle is Gray (one line per step)")
    func grayCycle() {
        for phase in 0..<4 {
            let here = QuadratureLevels.atPhase(phase)
            let next = QuadratureLevels.atPhase(phase + 1)
            #expect(here.phase == phase)
            #expect((here.code ^ next.code).nonzeroBitCount == 1)
        }
        #expect(QuadratureLevels.atPhase(-1) == QuadratureLevels.atPhase(3))
    }
}
