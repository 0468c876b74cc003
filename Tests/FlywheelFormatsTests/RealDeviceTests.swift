import FlywheelCore
import FlywheelIO
import Testing
@testable import FlywheelFormats

/// Recordings other people made of real devices (../shared/fixtures/real-devices, provenance in its
/// README), through the evdev backend's own classification and interpretation. What each must
/// decode to is worked out from the kernel's documented behaviour, not from this code.
@Suite("Real device recordings")
struct RealDeviceTests {
    static var present: Bool { FixturePaths.exists(FixturePaths.shared + "/real-devices") }

    static func replay(_ name: String) throws -> (classification: EvdevClassification, inputs: [DeviceInput]) {
        let path = FixturePaths.shared + "/real-devices/" + name
        let recording = try EvemuRecording.parse(try FileSystem.readFile(path), file: path)
        return DeviceReplay.inputs(from: recording, profiles: [])
    }

    static func knobs(_ inputs: [DeviceInput]) -> [Double] {
        inputs.compactMap { if case .knob(let detents) = $0.action { return detents } else { return nil } }
    }

    /// The kernel `rotary-encoder` in absolute mode with `rollover` and 30 steps declares ABS_WHEEL
    /// 0…30 (`input_set_abs_params(…, 0, steps, …)`) but reports 0…29 (`pos %= steps`), so the
    /// modulus is max − min = 30, not 31. The capture goes 1, 2, 3, 4, then 3, 2, 1, 0, 29, 28, 27,
    /// 26 from 0 (its evtest capture shows `Value 0` before the first event; a replay starts where a
    /// uinput playback would, at the axis's minimum, 0): +4, then −8 across the rollover (0 → 29 is
    /// one step back), −4 in all. The first step used to be taken as the reference and lost (−5).
    /// Its push key (KEY_ENTER) shares the node.
    @Test("a kernel rotary-encoder on an absolute axis with rollover and a push key",
          .enabled(if: present, FixturePaths.absent))
    func absoluteRotaryEncoder() throws {
        let replay = try Self.replay("rotary-encoder-abs-rollover-launius.evemu")
        #expect(replay.classification.kind == .encoder)
        #expect(replay.classification.knob == .absoluteEncoder(code: AbsCode.wheel, modulus: 30, countsPerDetent: 1))
        let knobs = Self.knobs(replay.inputs)
        #expect(knobs == [1, 1, 1, 1] + Array(repeating: -1, count: 8))
        #expect(knobs.reduce(0, +) == -4)
        let presses = replay.inputs.filter { $0.action == .button(code: 28, pressed: true) }
        #expect(presses.count == 2)
    }

    /// evemu-record's description comments give each axis's value when the recording began; a replay
    /// starts an absolute encoder there (as a uinput playback would), else at the axis's minimum.
    @Test("an absolute encoder's replay starts at the axis's recorded value, else its minimum; a recording keeps it")
    func recordedAxisValue() throws {
        let text = """
            # EVEMU 1.1
            # Input device name: "rotary"
            # Supported events:
            #   Event type 3 (EV_ABS)
            #     Event code 0 (ABS_X)
            #       Value     18
            #       Min        0
            #       Max       20
            N: rotary
            I: 0019 0000 0000 0000
            A: 00 0 20 0 0 0
            E: 0.050000 0003 0000 19
            E: 0.050000 0000 0000 0

            """
        let recording = try EvemuRecording.parse(Array(text.utf8), file: "r.evemu")
        #expect(recording.recordedAbsoluteValues == [AbsCode.x: 18])
        #expect(recording.initialAbsoluteValues == [AbsCode.x: 18])
        #expect(Self.knobs(DeviceReplay.inputs(from: recording, profiles: []).inputs) == [1], "18 → 19 is one step up")
        #expect(try EvemuRecording.parse(Array(recording.text().utf8), file: "q.evemu") == recording)
        var bare = recording
        bare.recordedAbsoluteValues = [:]
        #expect(bare.initialAbsoluteValues == [AbsCode.x: 0])
        #expect(Self.knobs(DeviceReplay.inputs(from: bare, profiles: []).inputs) == [-1], "from the minimum, 0 → 19 is one step back across the wrap")
    }

    /// Every report of a Contour device carries the jog counter byte, and the kernel drops a
    /// relative value of 0 (`input_get_disposition`), so a report without REL_DIAL — here the five
    /// button reports before the jog moves — says the counter is 0. The jog then reports 255, 254,
    /// 255, 1: −1, −1, +1, +2 from 0 (the first jog counts; it is not a baseline). The ring
    /// (REL_WHEEL) goes −1, −2, −1 and a counter-only report brings it back to centre, then +1,
    /// +2, +1 and back.
    @Test("a real ShuttleXpress: buttons, the first jog counted from 0, the ring and its return",
          .enabled(if: present, FixturePaths.absent))
    func shuttleXpress() throws {
        let replay = try Self.replay("shuttlexpress-omakoto.evemu")
        #expect(replay.classification.kind == .jogShuttle)
        #expect(Self.knobs(replay.inputs) == [-1, -1, 1, 2])
        let ring = replay.inputs.compactMap { if case .shuttle(let position) = $0.action { return position } else { return nil } }
        #expect(ring == [-1, -2, -1, 0, 1, 2, 1, 0])
        let presses = replay.inputs.compactMap { if case .button(let code, true) = $0.action { return code } else { return nil } }
        #expect(presses == [260, 261, 262, 263, 264])
    }
}
