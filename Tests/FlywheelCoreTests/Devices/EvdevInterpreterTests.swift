import FlywheelCore
import Testing

@Suite("Evdev interpreter")
struct EvdevInterpreterTests {
    static func rel(_ t: Nanoseconds, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(timeNanoseconds: t, type: EventType.rel, code: code, value: value) }
    static func key(_ t: Nanoseconds, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(timeNanoseconds: t, type: EventType.key, code: code, value: value) }
    static func abs(_ t: Nanoseconds, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(timeNanoseconds: t, type: EventType.abs, code: code, value: value) }
    static func dropped(_ t: Nanoseconds) -> InputEvent { InputEvent(timeNanoseconds: t, type: EventType.syn, code: SynCode.dropped, value: 0) }

    static func run(_ interpreter: inout EvdevInterpreter, _ frames: [[InputEvent]]) -> [DeviceInput] {
        var out: [DeviceInput] = []
        for frame in frames {
            for event in frame { out += interpreter.feed(event) }
            out += interpreter.feed(.synReport(at: frame.last!.timeNanoseconds))
        }
        return out
    }

    static let shuttle = EvdevClassification(
        kind: .jogShuttle, knob: .shuttle(jog: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1)),
        buttons: [], profileID: nil, wanted: true, reason: "")

    @Test("after SYN_DROPPED the counter is re-read, never jumped across")
    func counterAfterDrop() {
        var interpreter = EvdevInterpreter(Self.shuttle)
        var out = Self.run(&interpreter, [[Self.rel(1, RelCode.dial, 10)], [Self.rel(2, RelCode.dial, 12)]])
        #expect(out == [DeviceInput(.knob(detents: 2), at: 2)])
        // The kernel dropped events: everything to the next SYN_REPORT is discarded.
        out = interpreter.feed(Self.dropped(3))
        #expect(out == [DeviceInput(.gap(reason: "SYN_DROPPED"), at: 3)])
        out = interpreter.feed(Self.rel(3, RelCode.dial, 90)) + interpreter.feed(.synReport(at: 3))
        #expect(out.isEmpty)
        // 100 is the new reference (a jump from 12 to 100 would have been +88), then +1.
        out = Self.run(&interpreter, [[Self.rel(4, RelCode.dial, 100)], [Self.rel(5, RelCode.dial, 101)]])
        #expect(out == [DeviceInput(.knob(detents: 1), at: 5)])
        #expect(interpreter.gaps == 1)
    }

    @Test("buttons: autorepeat is ignored, repeats of a state are not news, a resync reports what changed")
    func buttons() {
        var interpreter = EvdevInterpreter(EvdevClassification(kind: .buttons, knob: nil, buttons: [KeyCode.btn0, KeyCode.btn4], profileID: nil, wanted: true, reason: ""))
        let out = Self.run(&interpreter, [[Self.key(1, KeyCode.btn0, 1)], [Self.key(2, KeyCode.btn0, 2)], [Self.key(3, KeyCode.btn0, 1)]])
        #expect(out == [DeviceInput(.button(code: KeyCode.btn0, pressed: true), at: 1)])
        _ = interpreter.feed(Self.dropped(4))
        // During the gap BTN_0 was released and BTN_4 pressed.
        let resync = interpreter.resynchronise(buttonsDown: [KeyCode.btn4], at: 5)
        #expect(resync == [DeviceInput(.button(code: KeyCode.btn0, pressed: false), at: 5), DeviceInput(.button(code: KeyCode.btn4, pressed: true), at: 5)])
        // After a resync the next frame is not discarded.
        #expect(Self.run(&interpreter, [[Self.key(6, KeyCode.btn4, 0)]]) == [DeviceInput(.button(code: KeyCode.btn4, pressed: false), at: 6)])
    }

    @Test("an absolute encoder resynchronised mid-turn counts the next step from its new position")
    func absoluteResync() {
        var interpreter = EvdevInterpreter(EvdevClassification(
            kind: .encoder, knob: .absoluteEncoder(code: AbsCode.x, modulus: 20, countsPerDetent: 1), buttons: [], profileID: nil, wanted: true, reason: ""))
        _ = Self.run(&interpreter, [[Self.abs(1, AbsCode.x, 5)], [Self.abs(2, AbsCode.x, 6)]])
        _ = interpreter.feed(Self.dropped(3))
        _ = interpreter.resynchronise(buttonsDown: [], absoluteValues: [AbsCode.x: 15], at: 4)
        #expect(Self.run(&interpreter, [[Self.abs(5, AbsCode.x, 16)]]) == [DeviceInput(.knob(detents: 1), at: 5)])
    }

    @Test("an absolute encoder opened at its axis's value counts its first step (it was the reference, and lost)")
    func absoluteFirstStep() {
        var interpreter = EvdevInterpreter(EvdevClassification(
            kind: .encoder, knob: .absoluteEncoder(code: AbsCode.x, modulus: 30, countsPerDetent: 1), buttons: [], profileID: nil, wanted: true, reason: ""))
        interpreter.start(absoluteValues: [AbsCode.x: 0, AbsCode.y: 9])
        #expect(Self.run(&interpreter, [[Self.abs(1, AbsCode.x, 1)]]) == [DeviceInput(.knob(detents: 1), at: 1)])
        // Across the rollover: 0 → 29 is one step down.
        var wrapped = EvdevInterpreter(interpreter.classification)
        wrapped.start(absoluteValues: [AbsCode.x: 0])
        #expect(Self.run(&wrapped, [[Self.abs(1, AbsCode.x, 29)]]) == [DeviceInput(.knob(detents: -1), at: 1)])
    }

    @Test("a drop while touching lifts the finger, and the next touch starts afresh (saying where it came down)")
    func touchDrop() {
        var interpreter = EvdevInterpreter(EvdevClassification(
            kind: .tabletStrip, knob: .tabletStrip(code: AbsCode.rx, range: 0...100, detents: 10), buttons: [], profileID: nil, wanted: true, reason: ""))
        var out = Self.run(&interpreter, [[Self.abs(1, AbsCode.rx, 10), Self.abs(1, AbsCode.misc, 15)], [Self.abs(2, AbsCode.rx, 30)]])
        #expect(out == [DeviceInput(.touchDown(position: 0.1, detents: 10), at: 1), DeviceInput(.touch(detents: 2), at: 2)])
        out = interpreter.feed(Self.dropped(3))
        #expect(out == [DeviceInput(.gap(reason: "SYN_DROPPED"), at: 3), DeviceInput(.lift, at: 3)])
        _ = interpreter.feed(.synReport(at: 3))
        out = Self.run(&interpreter, [[Self.abs(4, AbsCode.rx, 90)], [Self.abs(5, AbsCode.rx, 80)]])
        #expect(out == [DeviceInput(.touchDown(position: 0.9, detents: 10), at: 4), DeviceInput(.touch(detents: -1), at: 5)])
    }

    @Test("the shuttle ring's silent return waits only while the jog counter is known to be 0")
    func shuttleSilence() {
        var interpreter = EvdevInterpreter(Self.shuttle)
        _ = Self.run(&interpreter, [[Self.rel(1, RelCode.dial, 7)], [Self.rel(2, RelCode.wheel, 3), Self.rel(2, RelCode.dial, 7)]])
        #expect(interpreter.nextDeadline == nil)  // the counter is 7: the return will come as a counter-only report
        let out = Self.run(&interpreter, [[Self.rel(3, RelCode.wheel, 5)]])  // no counter: it is 0, the jog went 7 -> 0 unseen
        #expect(out == [DeviceInput(.knob(detents: -7), at: 3), DeviceInput(.shuttle(position: 5), at: 3)])
        #expect(interpreter.nextDeadline == 3 + interpreter.shuttleSilenceNanoseconds)
        #expect(interpreter.expire(at: 4).isEmpty)
        #expect(interpreter.expire(at: 3 + interpreter.shuttleSilenceNanoseconds) == [DeviceInput(.shuttle(position: 0), at: 3 + interpreter.shuttleSilenceNanoseconds)])
        #expect(interpreter.nextDeadline == nil)
    }

    @Test("a storm of SYN_DROPPED: one gap each, and never a count larger than the device really moved")
    func dropStorm() {
        var interpreter = EvdevInterpreter(Self.shuttle)
        var counter: Int32 = 100
        var out: [DeviceInput] = []
        var drops = 0
        for frame in 0..<5000 {
            let t = Nanoseconds(frame) * 1_000_000
            counter = (counter + 3) % 256  // +3 a report, wrapping
            if frame % 7 == 3 {
                drops += 1
                out += interpreter.feed(Self.dropped(t))
                counter = (counter + 97) % 256  // lost while dropped: must not be counted as a jump
            }
            out += interpreter.feed(Self.rel(t, RelCode.dial, counter == 0 ? 1 : counter))
            out += interpreter.feed(.synReport(at: t))
        }
        #expect(interpreter.gaps == drops)
        #expect(out.filter { $0.action == .gap(reason: "SYN_DROPPED") }.count == drops)
        for input in out {
            if case .knob(let detents) = input.action { #expect(detents >= 1 && detents <= 4) }
        }
    }
}

