import FlywheelCore
import Testing

@Suite("GPIO edge interpreter")
struct GPIOEdgeInterpreterTests {
    static let ms: Nanoseconds = 1_000_000

    static func detent(from t: Nanoseconds) -> [GPIOEdge] {
        [(GPIOEdge.Line.a, false), (.b, false), (.a, true), (.b, true)].enumerated().map { index, step in
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

    @Test("an edge that repeats its line's level is a gap; counting restarts from the levels after it")
    func impossibleEdge() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .four, initial: QuadratureLevels(code: 3))
        var out = interpreter.feed(Self.detent(from: 10 * Self.ms))
        #expect(out.map(\.action) == [.knob(detents: 1)])
        out = interpreter.feed([GPIOEdge(timeNanoseconds: 20 * Self.ms, line: .b, rising: true)])  // B is already high
        #expect(out == [DeviceInput(.gap(reason: "GPIO event buffer overflow"), at: 20 * Self.ms)])
        out = interpreter.feed(Self.detent(from: 30 * Self.ms))
        #expect(out.map(\.action) == [.knob(detents: 1)])
        #expect(interpreter.detents == 2 && interpreter.gaps == 1)
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

    @Test("simultaneous A and B edges are one invalid double step, not two valid ones")
    func simultaneous() {
        var interpreter = GPIOEdgeInterpreter(stepsPerDetent: .one, initial: QuadratureLevels(code: 3))
        let both = [GPIOEdge(timeNanoseconds: Self.ms, line: .a, rising: false), GPIOEdge(timeNanoseconds: Self.ms, line: .b, rising: false)]
        #expect(interpreter.feed(both).isEmpty)
        #expect(interpreter.levels == QuadratureLevels(code: 0))
    }
}
