import FlywheelCore
import Testing

@Suite("GPIO edge interpreter")
struct GPIOEdgeInterpreterTests {
    static let ms: Nanoseconds = 1_000_000

    /// One detent from rest 11, forward (A leads) or backward (B leads: the same levels in reverse).
    static func detent(from t: Nanoseconds, backward: Bool = false) -> [GPIOEdge] {
        let forward: [(GPIOEdge.Line, Bool)] = [(.a, false), (.b, false), (.a, true), (.b, true)]
        let reverse: [(GPIOEdge.Line, Bool)] = [(.b, false), (.a, false), (.b, true), (.a, true)]
        let steps = backward ? reverse : forward
        return steps.enumerated().map { index, step in
            GPIOEdge(timeNanoseconds: t + Nanoseconds(index) * ms, line: step.0, rising: step.1)
        }
    }

    @Test("a bouncing button is reported once, when it has held for the debounce time")
    func debounce() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        let bounces = [false, true, false, true, false].enumerated().map { index, level in
            GPIOEdge(timeNanoseconds: 100 * Self.ms + Nanoseconds(index) * Self.ms / 2, line: .button, rising: level)
        }
        #expect(interpreter.feed(bounces).isEmpty)
        #expect(interpreter.nextDeadline == 102 * Self.ms + 5 * Self.ms)
        #expect(interpreter.expire(at: 106 * Self.ms).isEmpty)
        #expect(interpreter.expire(at: 107 * Self.ms) == [DeviceInput(.button(code: KeyCode.btn0, pressed: true), at: 107 * Self.ms)])
        // A glitch shorter than the debounce time is no release.
        let glitch = [GPIOEdge(timeNanoseconds: 200 * Self.ms, line: .button, rising: true), GPIOEdge(timeNanoseconds: 201 * Self.ms, line: .button, rising: false)]
        #expect(interpreter.feed(glitch).isEmpty)
        #expect(interpreter.expire(at: 210 * Self.ms).isEmpty)
        #expect(interpreter.nextDeadline == nil)
    }

    @Test("a bounce the kernel labels late (two edges, one label) is two toggles; a detent still counts once")
    func lateLabels() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        // A bounces down and up within 0.3 ms; the kernel read the line after it settled, so both
        // edges say "rising". Then a clean detent.
        let bounce = [GPIOEdge(timeNanoseconds: 5 * Self.ms, line: .a, rising: true),
                      GPIOEdge(timeNanoseconds: 5 * Self.ms + 300_000, line: .a, rising: true)]
        #expect(interpreter.feed(bounce).isEmpty)
        #expect(interpreter.levels == QuadratureLevels(code: 3))
        #expect(interpreter.feed(Self.detent(from: 10 * Self.ms)).map(\.action) == [.knob(detents: 1)])
        #expect(interpreter.gaps == 0 && interpreter.corrections == 0)
    }

    @Test("an edge the interrupt merged away is corrected by the levels read back, not inverted for ever")
    func mergedEdge() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        // A detent whose "A falls" never arrived (merged with a bounce): three toggles, A now wrong.
        let missing = [GPIOEdge(timeNanoseconds: 10 * Self.ms, line: .b, rising: false),
                       GPIOEdge(timeNanoseconds: 12 * Self.ms, line: .a, rising: true),
                       GPIOEdge(timeNanoseconds: 13 * Self.ms, line: .b, rising: true)]
        _ = interpreter.feed(missing)
        #expect(interpreter.levels == QuadratureLevels(code: 1))
        // The backend reads the lines back at a quiet moment: 11.
        _ = interpreter.reconcile(levels: QuadratureLevels(code: 3), at: 14 * Self.ms)
        #expect(interpreter.levels == QuadratureLevels(code: 3) && interpreter.corrections == 1)
        // Later detents count normally; a read-back that agrees changes nothing.
        let counted = interpreter.feed(Self.detent(from: 20 * Self.ms)) + interpreter.feed(Self.detent(from: 30 * Self.ms))
        #expect(counted.map(\.action) == [.knob(detents: 1), .knob(detents: 1)])
        #expect(interpreter.reconcile(levels: QuadratureLevels(code: 3), at: 40 * Self.ms).isEmpty)
        #expect(interpreter.corrections == 1)
    }

    @Test("a reported overflow restarts at the levels read back, mid-step, without a false detent")
    func overflowMidStep() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        _ = interpreter.feed(Array(Self.detent(from: 0).prefix(2)))  // half a detent: 00
        // Lost edges; the lines now read 10 (the knob moved on). No detent may fire for the lost part.
        #expect(interpreter.overflow(levels: QuadratureLevels(code: 2), at: 5 * Self.ms).map(\.action) == [.gap(reason: "GPIO event buffer overflow")])
        let out = interpreter.feed([GPIOEdge(timeNanoseconds: 6 * Self.ms, line: .b, rising: true)])  // 10 -> 11: the first rest only anchors
        #expect(out.isEmpty)
        #expect(interpreter.feed(Self.detent(from: 10 * Self.ms)).map(\.action) == [.knob(detents: 1)])
    }

    @Test("the net detents carry across an overflow's restart of the decoder")
    func detentsAcrossGap() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        _ = interpreter.feed(Self.detent(from: 0))
        #expect(interpreter.detents == 1)
        _ = interpreter.overflow(levels: QuadratureLevels(code: 3), at: 5 * Self.ms)
        var actions: [DeviceInput.Action] = []
        for start: Nanoseconds in [10, 20, 30] {
            actions += interpreter.feed(Self.detent(from: start * Self.ms, backward: true)).map(\.action)
        }
        #expect(actions == [.knob(detents: -1), .knob(detents: -1), .knob(detents: -1)])
        #expect(interpreter.detents == DetentCount(-2))
        #expect(DetentCount(3) - DetentCount(5) == -2 && DetentCount.zero + 4 == DetentCount(4))
    }

    @Test("simultaneous A and B edges are one invalid double step, not two valid ones")
    func simultaneous() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .one, initial: QuadratureLevels(code: 3))
        let both = [GPIOEdge(timeNanoseconds: Self.ms, line: .a, rising: false), GPIOEdge(timeNanoseconds: Self.ms, line: .b, rising: false)]
        #expect(interpreter.feed(both).isEmpty)
        #expect(interpreter.levels == QuadratureLevels(code: 0))
    }
}
