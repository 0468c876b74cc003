import Testing
@testable import FlywheelCore

@Suite("Knob engine: detents during the settle")
struct KnobEngineSettleTests {
    static let ms: Nanoseconds = 1_000_000

    /// Runs the engine over `inputs` (time, delta) and to rest; returns the final reported detent.
    static func finalDetent(_ inputs: [(Nanoseconds, Double)], parameters: FeelParameters) -> Int {
        var engine = KnobEngine(parameters: parameters)
        var detent = 0
        func absorb(_ events: [KnobEngine.Event]) {
            for event in events { if case .detent(let d, _) = event { detent = d } }
        }
        for (time, delta) in inputs {
            while let deadline = engine.nextDeadline, deadline < time { absorb(engine.advance(to: deadline)) }
            absorb(engine.move(by: delta, at: time))
        }
        while let deadline = engine.nextDeadline { absorb(engine.advance(to: deadline)) }
        return detent
    }

    @Test("with coasting off, every hardware detent moves the count by exactly one, whenever it arrives during the settle")
    func inputDuringSpring() {
        var parameters = FeelParameters()
        parameters.minimumFlingSpeed = 1000  // no coasting: the spring only seats the knob
        // Bursts of detents at 5 to 80 a second, both ways, separated by 50 to 500 ms: releases
        // (after 100 ms of silence) followed by new input while the spring is still settling.
        var state: UInt64 = 0x5EED
        func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        var mismatches = 0
        for _ in 0..<200 {
            var inputs: [(Nanoseconds, Double)] = []
            var time: Nanoseconds = 0
            var truth = 0
            for _ in 0..<next(2...6) {
                let direction = next(0...1) == 0 ? -1 : 1
                let period = Nanoseconds(1_000 / next(5...80)) * Self.ms
                for _ in 0..<next(1...12) {
                    inputs.append((time, Double(direction)))
                    truth += direction
                    time += period
                }
                time += Nanoseconds(next(50...500)) * Self.ms
            }
            if Self.finalDetent(inputs, parameters: parameters) != truth { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
