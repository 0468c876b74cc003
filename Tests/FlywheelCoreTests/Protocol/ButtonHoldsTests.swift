@testable import FlywheelCore
import Testing

/// Holds and repeats that end with their cause (issue 45): each `hold-*` button and each repeating
/// button is its own, keyed by device and code; it ends when that button is released, when its
/// device goes, when a played timeline ends (its device is then removed), and at a reload that
/// drops the button.
@Suite("Holds that end with their button or device")
struct ButtonHoldsTests {
    static let ms: Nanoseconds = 1_000_000
    static let knob = InputDevice(name: "knob", path: "/dev/input/event3", kind: .buttons, route: .followMode)
    static let other = InputDevice(name: "pad", path: "/dev/input/event4", kind: .buttons, route: .followMode)

    static func configuration(_ text: String) throws -> FlywheelConfiguration {
        try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
    }

    static func pipeline(_ text: String) throws -> Pipeline {
        Pipeline(core: DaemonCore(configuration: try configuration(text)))
    }

    static func press(_ pipeline: Pipeline, _ code: UInt16, _ pressed: Bool, at t: Nanoseconds, on device: InputDevice = knob) {
        pipeline.input([DeviceInput(.button(code: code, pressed: pressed), at: t)], from: device)
    }

    /// Five single detents 400 ms apart (slow: no acceleration, no fling) from `start`, then rest.
    static func turn(_ pipeline: Pipeline, _ detents: Int, from start: Nanoseconds, on device: InputDevice = knob) {
        for index in 0..<abs(detents) {
            pipeline.input([DeviceInput(.knob(detents: detents > 0 ? 1 : -1), at: start + Nanoseconds(index) * 400 * ms)], from: device)
        }
        pipeline.advance(to: start + Nanoseconds(abs(detents)) * 400 * ms + 5_000 * ms)
    }

    @Test("two hold-fine buttons: releasing one keeps fine mode while the other is held (120.5, not 125)")
    func twoFineButtons() throws {
        let pipeline = try Self.pipeline("{ controls: { buttons: { BTN_4: 'hold-fine', BTN_5: 'hold-fine' } } }")
        Self.press(pipeline, KeyCode.btn0 + 4, true, at: 1_000 * Self.ms)
        Self.press(pipeline, KeyCode.btn0 + 5, true, at: 1_100 * Self.ms)
        Self.press(pipeline, KeyCode.btn0 + 4, false, at: 1_200 * Self.ms)
        Self.turn(pipeline, 5, from: 2_000 * Self.ms)
        #expect(pipeline.core.tempo.bpm.value == 120.5, "BTN_5 is still held: \(pipeline.core.tempo.bpm.value)")
        Self.press(pipeline, KeyCode.btn0 + 5, false, at: 10_000 * Self.ms)
        Self.turn(pipeline, 1, from: 11_000 * Self.ms)
        #expect(pipeline.core.tempo.bpm.value == 121, "both released: a whole detent")
    }

    @Test("the same code on two devices is two holds: one device's release leaves the other's")
    func sameCodeTwoDevices() throws {
        let pipeline = try Self.pipeline("{ controls: { buttons: { BTN_4: 'hold-fine' } } }")
        Self.press(pipeline, KeyCode.btn0 + 4, true, at: 1_000 * Self.ms, on: Self.knob)
        Self.press(pipeline, KeyCode.btn0 + 4, true, at: 1_100 * Self.ms, on: Self.other)
        Self.press(pipeline, KeyCode.btn0 + 4, false, at: 1_200 * Self.ms, on: Self.knob)
        Self.turn(pipeline, 2, from: 2_000 * Self.ms)
        #expect(pipeline.core.tempo.bpm.value == 120.2)
    }

    @Test("hold-tempo over hold-volume: the last pressed drives the knob; released, the other again")
    func stackedHolds() throws {
        let pipeline = try Self.pipeline("{ controls: { volume: { start: 30, step: 1 }, buttons: { BTN_4: 'hold-volume', BTN_5: 'hold-tempo' } } }")
        _ = pipeline.core.selectMode(.scrub)
        Self.press(pipeline, KeyCode.btn0 + 4, true, at: 1_000 * Self.ms)
        Self.press(pipeline, KeyCode.btn0 + 5, true, at: 1_100 * Self.ms)
        Self.turn(pipeline, 2, from: 2_000 * Self.ms)
        #expect(pipeline.core.tempo.bpm.value == 122 && pipeline.core.volume.volume == 30)
        Self.press(pipeline, KeyCode.btn0 + 5, false, at: 9_000 * Self.ms)
        Self.turn(pipeline, 3, from: 10_000 * Self.ms)
        #expect(pipeline.core.volume.volume == 33, "BTN_4 still holds the volume: \(pipeline.core.volume.volume)")
        Self.press(pipeline, KeyCode.btn0 + 4, false, at: 20_000 * Self.ms)
        #expect(pipeline.core.control(for: .followMode) == .scrub)
    }

    @Test("a device removed while its hold-fine and hold-tempo buttons are held: both holds end; another device's stays")
    func deviceRemoved() throws {
        let pipeline = try Self.pipeline("{ controls: { buttons: { BTN_4: 'hold-fine', BTN_5: 'hold-tempo', BTN_6: 'volume+' } } }")
        _ = pipeline.core.selectMode(.scrub)
        Self.press(pipeline, KeyCode.btn0 + 4, true, at: 1_000 * Self.ms)
        Self.press(pipeline, KeyCode.btn0 + 5, true, at: 1_000 * Self.ms)
        Self.press(pipeline, KeyCode.btn0 + 6, true, at: 1_000 * Self.ms, on: Self.other)
        pipeline.deviceChanged(.removed, Self.knob, at: 1_500 * Self.ms)
        #expect(pipeline.core.control(for: .followMode) == .scrub, "hold-tempo ended with its device")
        #expect(!pipeline.core.fineHeld, "hold-fine ended with its device")
        let before = pipeline.core.volume.volume
        pipeline.advance(to: 2_000 * Self.ms)
        #expect(pipeline.core.volume.volume > before, "the other device's volume+ still repeats")
        pipeline.deviceChanged(.removed, Self.other, at: 2_000 * Self.ms)
        #expect(pipeline.nextDeadline == nil || pipeline.nextDeadline! > 2_000 * Self.ms)
        let after = pipeline.core.volume.volume
        pipeline.advance(to: 5_000 * Self.ms)
        #expect(pipeline.core.volume.volume == after, "its repeat ended with it")
    }

    @Test("a played timeline that ends with a button down: its device is removed at the end, the repeat stops, the run ends")
    func playbackEndsHeld() throws {
        let pipeline = try Self.pipeline("{ controls: { buttons: { BTN_4: 'navigate+', BTN_5: 'hold-fine' } } }")
        let device = InputDevice(name: "sim", path: "held.sim", kind: .simulated, route: .followMode)
        let items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)] = [
            (100 * Self.ms, .button(code: KeyCode.btn0 + 4, pressed: true)), (100 * Self.ms, .button(code: KeyCode.btn0 + 5, pressed: true)),
        ]
        pipeline.play(Playback(items: items, endNanoseconds: 2_100 * Self.ms, device: device, loops: false, start: 0))
        var messages: [ServerMessage] = []
        var steps = 0
        while let due = pipeline.nextDeadline, steps < 10_000 {
            pipeline.advance(to: due)
            messages += pipeline.takeMessages()
            steps += 1
        }
        #expect(steps < 10_000, "the playback never ended")
        let lines = messages.map { String(decoding: $0.bytesWithoutSeq, as: UTF8.self) }
        let navigations = lines.filter { $0.contains("\"class\":\"navigate\"") }.count
        // The press at 0.1 s, then from 0.5 s every 0.1 s to 2.1 s (the end: the repeat due then
        // comes first, as everything due at an instant does).
        #expect(navigations == 18, "\(navigations): \(lines)")
        #expect(lines.last?.contains("\"class\":\"device\"") == true && lines.last?.contains("\"removed\"") == true, "\(lines.last ?? "")")
        #expect(!pipeline.core.fineHeld)
        #expect(pipeline.playback?.isOver == true)
    }

    @Test("a reload that drops a held button ends its hold and its repeat; one that keeps it keeps them")
    func reload() throws {
        let kept = try Self.configuration("{ controls: { buttons: { BTN_4: 'hold-fine', BTN_6: 'volume+' } } }")
        var core = DaemonCore(configuration: kept)
        _ = core.button(KeyCode.btn0 + 4, pressed: true, at: 1_000 * Self.ms, device: Self.knob.identity)
        _ = core.button(KeyCode.btn0 + 6, pressed: true, at: 1_000 * Self.ms, device: Self.knob.identity)
        var same = core.reloaded(with: kept, at: 1_100 * Self.ms).core
        #expect(same.fineHeld, "the button is still hold-fine: its hold goes on")
        #expect(same.nextDeadline == 1_400 * Self.ms, "its repeat goes on")
        _ = same.button(KeyCode.btn0 + 4, pressed: false, at: 1_200 * Self.ms, device: Self.knob.identity)
        #expect(!same.fineHeld, "and ends at its release")
        let dropped = core.reloaded(with: try Self.configuration("{ controls: { buttons: { BTN_4: 'tap' } } }"), at: 1_100 * Self.ms).core
        #expect(!dropped.fineHeld, "BTN_4 is a tap now: the hold ended")
        #expect(dropped.nextDeadline == nil, "BTN_6 is no longer volume+: no repeat")
    }
}
