import Testing
@testable import FlywheelCore

/// A touch panel's strip region (single touch, ABS_X with BTN_TOUCH) through the evdev interpreter
/// and the pipeline: where the finger comes down, the mode switch it drives, the tap hint.
@Suite("Strip touches: touch-down, the mode switch and the tap hint")
struct StripTouchTests {
    static let ms: Nanoseconds = 1_000_000

    /// A strip along x from 0 to 1000 spanning 20 detents.
    static let panel = EvdevClassification(
        kind: .touch, knob: .touch(.strip(alongX: true, from: 0, to: 1000, detents: 20)), buttons: [], profileID: nil, wanted: true, reason: "")

    /// The finger at each x in turn, 20 ms apart from `start`, then lifted 20 ms after the last.
    static func finger(_ xs: [Int32], start: Nanoseconds = 1_000 * ms) -> [DeviceInput] {
        var interpreter = EvdevInterpreter(panel)
        var out: [DeviceInput] = []
        var time = start
        for (index, x) in xs.enumerated() {
            if index == 0 { out += interpreter.feed(InputEvent(timeNanoseconds: time, type: EventType.key, code: KeyCode.btnTouch, value: 1)) }
            out += interpreter.feed(InputEvent(timeNanoseconds: time, type: EventType.abs, code: AbsCode.x, value: x))
            out += interpreter.feed(InputEvent(timeNanoseconds: time, type: EventType.abs, code: AbsCode.y, value: 10))
            out += interpreter.feed(.synReport(at: time))
            time += 20 * ms
        }
        out += interpreter.feed(InputEvent(timeNanoseconds: time, type: EventType.key, code: KeyCode.btnTouch, value: 0))
        out += interpreter.feed(.synReport(at: time))
        return out
    }

    /// The messages of the pipeline fed `inputs` from a panel strip on `route`, run to rest.
    static func messages(_ inputs: [DeviceInput], route: KnobRoute, modes: [Control] = [.tempo, .scrub, .volume]) -> (texts: [String], core: DaemonCore) {
        let pipeline = Pipeline(core: DaemonCore(scrubber: Scrubber(durationSeconds: 214, positionSeconds: 100), modes: modes))
        let device = InputDevice(name: "panel", path: "/dev/input/event9", kind: .touch, route: route)
        var messages = pipeline.fed(inputs, from: device)
        while let deadline = pipeline.nextDeadline { messages += pipeline.advanced(to: deadline) }
        return (messages.map { String(decoding: $0.bytesWithoutSeq, as: UTF8.self) }, pipeline.core)
    }

    @Test("a panel strip says where the finger came down, before it moves")
    func touchDown() {
        let inputs = Self.finger([250, 300])
        #expect(inputs.first == DeviceInput(.touchDown(position: 0.25, detents: 20), at: 1_000 * Self.ms))
        #expect(inputs.dropFirst().first == DeviceInput(.touch(detents: 1), at: 1_020 * Self.ms))
    }

    @Test("routed to the switch: a tap on the last third selects the third segment; a pan snaps to the nearest")
    func modeSwitch() {
        let tap = Self.messages(Self.finger([900]), route: .modeSwitch)
        #expect(tap.core.mode.active == .volume)
        #expect(tap.texts.filter { $0.contains("\"class\":\"mode\"") }.count == 1)
        // From 0.1 (tempo) to 0.5 (the middle of scrub) and back to 0.3: offset 0.4, short of half way.
        let back = Self.messages(Self.finger([100, 300, 500, 300]), route: .modeSwitch)
        #expect(back.core.mode.active == .tempo && !back.texts.contains { $0.contains("\"class\":\"mode\"") })
        let over = Self.messages(Self.finger([100, 300, 400]), route: .modeSwitch)  // offset 0.7: scrub
        #expect(over.core.mode.active == .scrub)
        #expect(!over.texts.contains { $0.contains("\"class\":\"tempo\"") }, "the switch strip turns no knob")
    }

    @Test("a tap on a strip driving the scrub gives a hint, not on the tempo and not after a swipe")
    func hint() {
        let scrub = Self.messages(Self.finger([800]), route: .pinned(.scrub))
        #expect(scrub.texts.filter { $0.hasPrefix("{\"class\":\"hint\",\"control\":\"scrub\",\"direction\":-1,") }.count == 1, "\(scrub.texts)")
        #expect(!scrub.texts.contains { $0.contains("\"class\":\"scrub\"") })
        let tempo = Self.messages(Self.finger([800]), route: .pinned(.tempo))
        #expect(!tempo.texts.contains { $0.contains("\"class\":\"hint\"") })
        let swipe = Self.messages(Self.finger([100, 200, 300]), route: .pinned(.scrub))
        #expect(!swipe.texts.contains { $0.contains("\"class\":\"hint\"") })
    }
}
