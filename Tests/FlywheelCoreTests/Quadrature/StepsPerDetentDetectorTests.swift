import Testing
@testable import FlywheelCore

@Suite("Steps-per-detent detection")
struct StepsPerDetentDetectorTests {
    /// A trace that steps through `phases` quickly (1 ms apart) and rests 200 ms at every phase in `restAt`.
    static func trace(restingOn restPhases: Set<Int>, cycles: Int) -> QuadratureTrace {
        let initial = QuadratureLevels(code: 3)
        var edges: [QuadratureEdge] = []
        var time: Int64 = 0
        var levels = initial
        for step in 1...(cycles * 4) {
            let next = QuadratureLevels.atPhase(initial.phase + step)
            time += restPhases.contains(levels.phase) ? 200_000_000 : 1_000_000
            let line: QuadratureLine = next.a != levels.a ? .a : .b
            edges.append(QuadratureEdge(timeNanoseconds: time, line: line, level: next.level(of: line)))
            levels = next
        }
        return QuadratureTrace(initial: initial, edges: edges)
    }

    @Test("rests on one state → 4, on 00 and 11 → 2, on every state → 1")
    func hypotheses() {
        let four = StepsPerDetentDetector.detect(Self.trace(restingOn: [2], cycles: 10))
        #expect(four.stepsPerDetent == .four)
        #expect(four.rest == QuadratureLevels(code: 3))
        #expect(four.confidence > 0.7)
        let two = StepsPerDetentDetector.detect(Self.trace(restingOn: [0, 2], cycles: 6))
        #expect(two.stepsPerDetent == .two)
        let one = StepsPerDetentDetector.detect(Self.trace(restingOn: [0, 1, 2, 3], cycles: 6))
        #expect(one.stepsPerDetent == .one)
    }

    @Test("no rests → no verdict and zero confidence")
    func noEvidence() {
        let estimate = StepsPerDetentDetector.detect(Self.trace(restingOn: [], cycles: 3), end: 12_000_000)
        #expect(estimate.stepsPerDetent == nil)
        #expect(estimate.confidence == 0)
    }

    @Test("little evidence → lower confidence than plenty")
    func evidenceWeight() {
        let few = StepsPerDetentDetector.detect(Self.trace(restingOn: [2], cycles: 2))
        let many = StepsPerDetentDetector.detect(Self.trace(restingOn: [2], cycles: 12))
        #expect(few.stepsPerDetent == .four && many.stepsPerDetent == .four)
        #expect(few.confidence < many.confidence)
    }
}
