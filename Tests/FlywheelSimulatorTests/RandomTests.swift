import FlywheelSimulator
import Testing

@Suite struct RandomTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        // The published first outputs of SplitMix64 seeded with 0.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func sameSeedSameOutput() {
        var first = SeededGenerator(seed: 12345)
        var second = SeededGenerator(seed: 12345)
        let a = (0..<1000).map { _ in first.next() }
        let b = (0..<1000).map { _ in second.next() }
        #expect(a == b)
    }

    @Test func differentSeedsAndStreamsDiffer() {
        var one = SeededGenerator(seed: 1)
        var two = SeededGenerator(seed: 2)
        var stream = SeededGenerator(seed: 1, stream: 7)
        let a = (0..<8).map { _ in one.next() }
        #expect(a != (0..<8).map { _ in two.next() })
        #expect(a != (0..<8).map { _ in stream.next() })
    }

    @Test func uniformHelpersStayInRange() {
        var random = SeededGenerator(seed: 99)
        var seen = Set<Int>()
        for _ in 0..<10_000 {
            let unit = random.unitDouble()
            #expect(unit >= 0 && unit < 1)
            let value = random.uniform(-3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
            let big = random.uniform(Int64(5)...Int64(6))
            #expect(big == 5 || big == 6)
        }
        #expect(seen.count == 7)  // every value turns up
    }
}
