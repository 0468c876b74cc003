@testable import FlywheelCore
import Testing

/// The navigator (issue 35): a detent is a track, next or previous, the moment it is turned; no
/// coast after a flick, no acceleration, partial detents adding up per device.
@Suite("The navigator")
struct NavigateControlTests {
    static let ms: Nanoseconds = 1_000_000

    static func steps(_ messages: [ServerMessage]) -> [Int] {
        messages.compactMap { message in
            guard let json = try? JSONParser.parse(message.bytesWithoutSeq), json["class"] == .string("navigate") else { return nil }
            return json["steps"]?.doubleValue.map { Int($0) }
        }
    }

    @Test("a fast spin on a knob pinned to navigate: a step a detent, no acceleration, and nothing after the hand stops")
    func spinDoesNotCoast() {
        var core = DaemonCore()
        var out: [Int] = []
        // 20 detents at 40 a second: the tempo would accelerate and coast; the navigator does neither.
        for index in 0..<20 { out += Self.steps(core.knob(by: 1, at: Nanoseconds(index) * 25 * Self.ms, route: .pinned(.navigate))) }
        out += Self.steps(core.advance(to: 10_000 * Self.ms))
        #expect(out == Array(repeating: 1, count: 20))
        #expect(core.nextDeadline == nil, "nothing waits: no coast, no settle")
        #expect(Self.steps(core.knob(by: -1, at: 11_000 * Self.ms, route: .pinned(.navigate))) == [-1])
    }

    @Test("partial detents (a touch ring) add up per device; a lift forgets the rest; the mode switch can select the navigator")
    func partials() throws {
        var navigator = NavigateControl()
        let ring = DeviceIdentity(path: "/dev/input/event7")
        #expect(navigator.move(by: 0.6, at: 0, device: ring).isEmpty)
        #expect(navigator.move(by: 0.6, at: 1, device: ring) == [.navigate(steps: 1, timeNanoseconds: 1)])
        navigator.lift(device: ring)
        #expect(navigator.move(by: 0.9, at: 2, device: ring).isEmpty)
        #expect(navigator.move(by: -2.5, at: 3, device: ring) == [.navigate(steps: -1, timeNanoseconds: 3)])
        let configured = try FlywheelConfiguration.parse(Array("{ controls: { mode: { segments: ['tempo', 'navigate'] } } }".utf8), file: "f.json5")
        var core = DaemonCore(configuration: configured)
        _ = core.handle(.setMode("navigate"), at: 0)
        #expect(Self.steps(core.knob(by: 2, at: Self.ms)) == [2])
        let wire = String(decoding: ServerMessage(ControlEvent.navigate(steps: -1, timeNanoseconds: 0)).bytesWithoutSeq, as: UTF8.self)
        #expect(wire.hasPrefix(#"{"class":"navigate","steps":-1,"time":"#), "\(wire)")
    }
}
