import Testing
@testable import FlywheelCore

@Suite("Quadrature decoder")
struct QuadratureDecoderTests {
    /// Feeds the levels at successive phases `path` (relative to phase of `initial`).
    static func run(_ steps: StepsPerDetent, from initial: QuadratureLevels, phases: [Int]) -> (QuadratureDecoder, [DetentCount]) {
        var decoder = QuadratureDecoder(stepsPerDetent: steps, initial: initial)
        var fired: [DetentCount] = []
        for phase in phases {
            let result = decoder.feed(QuadratureLevels.atPhase(initial.phase + phase))
            if result != 0 { fired.append(result) }
        }
        return (decoder, fired)
    }

    static let rest11 = QuadratureLevels(code: 3)

    @Test("four steps: one detent per full period, in both directions")
    func fullPeriod() {
        let (forward, firedForward) = Self.run(.four, from: Self.rest11, phases: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(firedForward == [1, 1])
        #expect(forward.detents == 2 && forward.quarterSteps == 8)
        let (backward, firedBackward) = Self.run(.four, from: Self.rest11, phases: [-1, -2, -3, -4])
        #expect(firedBackward == [-1])
        #expect(backward.detents == -1)
    }

    @Test("two steps: a detent on each of 00 and 11")
    func halfPeriod() {
        let (decoder, fired) = Self.run(.two, from: Self.rest11, phases: [1, 2, 3, 4, 3, 2])
        #expect(fired == [1, 1, -1])
        #expect(decoder.detents == 1)
    }

    @Test("one step: every valid transition is a detent")
    func quarterPeriod() {
        let (decoder, fired) = Self.run(.one, from: QuadratureLevels(code: 0), phases: [1, 2, 1, 0, -1])
        #expect(fired == [1, 1, -1, -1, -1])
        #expect(decoder.detents == -1)
    }

    @Test("a bounce or wiggle part-way into a step and back fires nothing and loses nothing",
          arguments: [StepsPerDetent.two, .four])
    func wiggle(_ steps: StepsPerDetent) {
        // Into the step by up to N-1 quarter steps with bounce, then all the way back.
        let into = steps.rawValue - 1
        var path: [Int] = []
        for depth in 1...into { path += [depth, depth - 1, depth] }  // chatter on each edge
        path += Array((0..<into).reversed())
        let (decoder, fired) = Self.run(steps, from: Self.rest11, phases: path)
        #expect(fired.isEmpty)
        #expect(decoder.detents == 0 && decoder.quarterSteps == 0)
        // ... and the next full turn still counts exactly one detent.
        var next = decoder
        for phase in 1...steps.rawValue { next.feed(QuadratureLevels.atPhase(Self.rest11.phase + phase)) }
        #expect(next.detents == 1)
    }

    @Test("bounce on the edge that completes a detent fires it exactly once")
    func bounceAtRest() {
        // 11 → 01 → 00 → 10 → 11 (back to rest = backward detent), bouncing on the last edge.
        let (decoder, fired) = Self.run(.four, from: Self.rest11, phases: [-1, -2, -3, -4, -3, -4, -3, -4])
        #expect(fired == [-1])
        #expect(decoder.detents == -1)
        #expect(decoder.quarterSteps == -4)
    }

    @Test("an invalid transition is counted, never guessed: only whole detents are reported")
    func invalidAmbiguity() {
        var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: Self.rest11)
        decoder.feed(.atPhase(3))  // +1
        decoder.feed(.atPhase(1))  // double: +2 or -2, unknown
        let fired = decoder.feed(.atPhase(2))  // +1, arrives at rest with net +2 counted
        #expect(decoder.invalidTransitions == 1)
        #expect(fired == 0)
        #expect(decoder.uncertainQuarterSteps == 2)
        // After the uncertain rest the decoder is exact again.
        for phase in 3...6 { decoder.feed(.atPhase(phase)) }
        #expect(decoder.detents == 1)
        #expect(decoder.uncertainQuarterSteps == 2)
    }

    @Test("uncertain quarter steps add up the remainders of both directions; the exact count keeps its sign")
    func uncertainRemainders() {
        var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: Self.rest11)
        // Backward with a double transition: −2 counted at the next rest, no whole detent (toward zero).
        decoder.feed(.atPhase(1))
        decoder.feed(.atPhase(-1))
        #expect(decoder.feed(.atPhase(-2)) == 0)
        #expect(decoder.quarterSteps == QuarterSteps(-2) && decoder.uncertainQuarterSteps == QuarterSteps(2))
        // Forward past a rest by a double transition: +6 counted, one whole detent and 2 left over.
        var fired: [DetentCount] = []
        for phase in [-1, 0, 1, 3, 4, 5, 6] { fired.append(decoder.feed(.atPhase(phase))) }
        #expect(fired == [0, 0, 0, 0, 0, 0, 1])
        #expect(decoder.detents == DetentCount(1) && decoder.quarterSteps == QuarterSteps(4))
        #expect(decoder.uncertainQuarterSteps == QuarterSteps(4))
        #expect(decoder.invalidTransitions == 2)
    }

    @Test("a trace that starts between rests anchors at the first rest without an event")
    func startBetweenRests() {
        var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: QuadratureLevels(code: 0b10), rest: Self.rest11)
        #expect(decoder.feed(Self.rest11) == 0)
        for phase in 3...6 { decoder.feed(.atPhase(phase)) }
        #expect(decoder.detents == 1)
    }

    @Test("samples merge simultaneous edges into one (invalid) transition")
    func samples() {
        let trace = QuadratureTrace(initial: Self.rest11, edges: [
            QuadratureEdge(timeNanoseconds: 10, line: .a, level: false),
            QuadratureEdge(timeNanoseconds: 10, line: .b, level: false),
            QuadratureEdge(timeNanoseconds: 20, line: .a, level: true),
            QuadratureEdge(timeNanoseconds: 30, line: .a, level: true),  // no change: dropped
        ])
        #expect(trace.samples.map(\.levels.code) == [0b00, 0b10])
        var decoder = QuadratureDecoder(stepsPerDetent: .one, initial: Self.rest11)
        decoder.decode(trace.samples)
        #expect(decoder.invalidTransitions == 1 && decoder.validTransitions == 1)
    }

    @Test("decode reports each detent with its time and running position")
    func decodeCallback() {
        var edges: [QuadratureEdge] = []
        var levels = Self.rest11
        for step in 1...8 {
            let next = QuadratureLevels.atPhase(Self.rest11.phase - step)
            let line: QuadratureLine = next.a != levels.a ? .a : .b
            edges.append(QuadratureEdge(timeNanoseconds: Int64(step) * 1000, line: line, level: next.level(of: line)))
            levels = next
        }
        var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: Self.rest11)
        var events: [(Int64, Int, Int)] = []
        decoder.decode(QuadratureTrace(initial: Self.rest11, edges: edges).samples) { events.append(($0, $1, $2)) }
        #expect(events.map(\.0) == [4000, 8000])
        #expect(events.map(\.1) == [-1, -1])
        #expect(events.map(\.2) == [-1, -2])
    }

    @Test("count(codes:) equals feeding one by one, invalid and repeated samples included",
          arguments: StepsPerDetent.allCases)
    func bulkCount(_ steps: StepsPerDetent) {
        var generator = 0x2545F4914F6CDD1D as UInt64
        for trial in 0..<200 {
            var codes: [UInt8] = []
            var phase = 2
            for _ in 0..<(trial * 7 % 300) {
                generator = generator &* 6364136223846793005 &+ 1442695040888963407
                let roll = generator >> 58  // 0..63
                switch roll {
                case 0: phase += 2  // a double transition
                case 1: break  // a repeated sample
                case 2...24: phase -= 1
                default: phase += 1
                }
                codes.append(QuadratureLevels.atPhase(phase).code | (roll == 3 ? 0b1000 : 0))  // stray high bits are ignored
            }
            let initial = QuadratureLevels.atPhase(trial % 4)
            var bulk = QuadratureDecoder(stepsPerDetent: steps, initial: initial)
            codes.withUnsafeBufferPointer { bulk.count(codes: $0) }
            var single = QuadratureDecoder(stepsPerDetent: steps, initial: initial)
            for code in codes { single.feed(QuadratureLevels(code: code)) }
            #expect(bulk.detents == single.detents, "trial \(trial)")
            #expect(bulk.quarterSteps == single.quarterSteps)
            #expect(bulk.validTransitions == single.validTransitions)
            #expect(bulk.invalidTransitions == single.invalidTransitions)
            #expect(bulk.uncertainQuarterSteps == single.uncertainQuarterSteps)
            #expect(bulk.levels == single.levels)
            // Both continue identically afterwards.
            for phase in 1...8 {
                bulk.feed(.atPhase(single.levels.phase + 1))
                single.feed(.atPhase(single.levels.phase + 1))
                _ = phase
            }
            #expect(bulk.detents == single.detents)
        }
    }
}
