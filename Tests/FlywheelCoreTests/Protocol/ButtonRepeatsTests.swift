@testable import FlywheelCore
import Testing

/// Buttons that step a control (issue 35: hold-to-repeat, a pair of ± volume buttons): a step at
/// the press, then one every 0.1 s from 0.4 s until the release.
@Suite("Hold-to-repeat buttons")
struct ButtonRepeatsTests {
    static let ms: Nanoseconds = 1_000_000

    static func values(_ messages: [ServerMessage], _ className: String, _ key: String) -> [Int] {
        messages.compactMap { message in
            guard let json = try? JSONParser.parse(message.bytesWithoutSeq), json["class"] == .string(className),
                json["phase"] == nil || json["phase"] == .string("moved")
            else { return nil }
            return json[key]?.doubleValue.map { Int($0) }
        }
    }

    static func pipeline(_ configuration: String) throws -> Pipeline {
        Pipeline(core: DaemonCore(configuration: try FlywheelConfiguration.parse(Array(configuration.utf8), file: "f.json5")))
    }

    @Test("volume+ tapped is one step; held 1 s it repeats from 0.4 s, ten a second, and stops at the release; volume- goes down")
    func volumeButtons() throws {
        let pipeline = try Self.pipeline("{ controls: { volume: { start: 30, step: 2 }, buttons: { BTN_1: 'volume+', BTN_2: 'volume-' } } }")
        let device = InputDevice(name: "keys", path: "keys", kind: .buttons, route: .none)
        func press(_ code: UInt16, _ pressed: Bool, at t: Nanoseconds) -> [ServerMessage] {
            pipeline.fed([DeviceInput(.button(code: code, pressed: pressed), at: t)], from: device)
        }
        var out = press(KeyCode.btn0 + 1, true, at: 1_000 * Self.ms) + press(KeyCode.btn0 + 1, false, at: 1_100 * Self.ms)
        out += pipeline.advanced(to: 2_000 * Self.ms)
        #expect(Self.values(out, "volume", "volume") == [32], "a tap is one step")
        out = press(KeyCode.btn0 + 1, true, at: 3_000 * Self.ms)
        out += pipeline.advanced(to: 4_000 * Self.ms)
        out += press(KeyCode.btn0 + 1, false, at: 4_000 * Self.ms)
        out += pipeline.advanced(to: 6_000 * Self.ms)
        // The press, then 3.4, 3.5, … 3.9 (and 4.0 is the release's own time: due, and done first).
        #expect(Self.values(out, "volume", "volume") == [34, 36, 38, 40, 42, 44, 46, 48], "\(Self.values(out, "volume", "volume"))")
        #expect(pipeline.nextDeadline == nil, "nothing repeats after the release")
        out = press(KeyCode.btn0 + 2, true, at: 7_000 * Self.ms) + press(KeyCode.btn0 + 2, false, at: 7_050 * Self.ms)
        out += pipeline.advanced(to: 8_000 * Self.ms)
        #expect(Self.values(out, "volume", "volume") == [46])
    }

    @Test("navigate+ held skips tracks, one a repeat; the actions are refused beside long and double presses")
    func navigateAndRefusals() throws {
        let pipeline = try Self.pipeline("{ controls: { buttons: { BTN_0: 'navigate+' } } }")
        let device = InputDevice(name: "keys", path: "keys", kind: .buttons, route: .none)
        var out = pipeline.fed([DeviceInput(.button(code: KeyCode.btn0, pressed: true), at: 1_000 * Self.ms)], from: device)
        out += pipeline.advanced(to: 1_650 * Self.ms)
        out += pipeline.fed([DeviceInput(.button(code: KeyCode.btn0, pressed: false), at: 1_650 * Self.ms)], from: device)
        #expect(Self.values(out, "navigate", "steps") == [1, 1, 1, 1], "the press, 1.4, 1.5, 1.6")
        #expect(throws: FileLineError.self) {
            try FlywheelConfiguration.parse(Array("{ devices: [ { path: '/dev/input/event3', buttons: { BTN_0: { press: 'volume+', long: 'mode' } } } ] }".utf8), file: "f.json5")
        }
    }
}
