@testable import FlywheelCore
import Testing

/// Fine control and tenths of a BPM (issue 34): a `hold-fine` button makes a detent a tenth of a
/// step; `controls.tempo.resolution` makes the dial itself tenths; the wire carries the tempo to a
/// tenth, whole tempos as before.
private let ms: Nanoseconds = 1_000_000

@Suite("Fine control and tenths of a BPM")
struct FineControlTests {

    static func core(_ text: String = "{}") throws -> DaemonCore {
        DaemonCore(configuration: try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5"))
    }

    /// Single detents 400 ms apart (each its own slow gesture), from `start`; the values each step reports.
    static func turn(_ core: inout DaemonCore, _ steps: [Int], route: KnobRoute, from start: Nanoseconds) -> [String] {
        var out: [String] = []
        for (index, step) in steps.enumerated() {
            let t = start + Nanoseconds(index) * 400 * ms
            out += core.knob(by: Double(step), at: t, route: route).compactMap(Self.value)
            out += core.advance(to: t + 399 * ms).compactMap(Self.value)
        }
        return out
    }

    /// A `moved` step's value as the wire says it (`120.5`, `41`, `101`).
    static func value(_ message: ServerMessage) -> String? {
        guard let json = try? JSONParser.parse(message.bytesWithoutSeq), json["phase"] == .string("moved") else { return nil }
        let key: String
        switch json["class"]?.stringValue {
        case "tempo": key = "bpm"
        case "volume": key = "volume"
        case "scrub": key = "position"
        default: return nil
        }
        return json[key].map { $0.encoded() }
    }

    static func press(_ core: inout DaemonCore, _ pressed: Bool, at time: Nanoseconds) {
        _ = core.button(KeyCode.btn0, pressed: pressed, at: time, deviceActions: [KeyCode.btn0: .holdFine])
    }

    @Test("held, a tempo detent is 0.1 BPM with no fling; free, a whole detent goes to the next whole BPM either way")
    func tempo() throws {
        var core = try Self.core()
        Self.press(&core, true, at: 0)
        #expect(Self.turn(&core, [1, 1, 1, 1, 1], route: .pinned(.tempo), from: 10 * ms) == ["120.1", "120.2", "120.3", "120.4", "120.5"])
        // A fast fine turn does not fling or accelerate: 10 detents at 50/s are exactly 1 BPM.
        var fast: [String] = []
        for index in 0..<10 { fast += core.knob(by: 1, at: 3_000 * ms + Nanoseconds(index) * 20 * ms, route: .pinned(.tempo)).compactMap(Self.value) }
        fast += core.advance(to: 10_000 * ms).compactMap(Self.value)
        #expect(fast.last == "121.5" && fast.count == 10, "\(fast)")
        Self.press(&core, false, at: 11_000 * ms)
        #expect(Self.turn(&core, [1], route: .pinned(.tempo), from: 12_000 * ms) == ["122"])
        Self.press(&core, true, at: 13_000 * ms)
        #expect(Self.turn(&core, [-1, -1, -1], route: .pinned(.tempo), from: 13_100 * ms) == ["121.9", "121.8", "121.7"])
        Self.press(&core, false, at: 15_000 * ms)
        #expect(Self.turn(&core, [-1], route: .pinned(.tempo), from: 15_100 * ms) == ["121"])
    }

    @Test("held, a volume detent is 1 % whatever the step, and a scrub detent a tenth of the resolution")
    func volumeAndScrub() throws {
        var core = try Self.core("{ controls: { volume: { step: 4, start: 40 } } }")
        _ = core.handle(.setScrub(duration: 2000, position: 100), at: 0)  // 10 s a detent
        Self.press(&core, true, at: 0)
        #expect(Self.turn(&core, [1, 1, -1], route: .pinned(.volume), from: 10 * ms) == ["41", "42", "41"])
        let scrubbed = Self.turn(&core, [1, 1], route: .pinned(.scrub), from: 2_000 * ms)
        #expect(scrubbed == ["101", "102"], "\(scrubbed)")
        Self.press(&core, false, at: 4_000 * ms)
        #expect(Self.turn(&core, [1], route: .pinned(.volume), from: 5_000 * ms) == ["44"])
    }

    @Test("controls.tempo.resolution 0.1: a detent is a tenth; 0.5 and 1 as named; other values and the maelzel table are refused with line and key")
    func resolution() throws {
        var tenths = try Self.core("{ controls: { tempo: { resolution: 0.1, bpm: 92.5 } } }")
        #expect(tenths.tempo.bpm == BPM(tenths: 925))
        #expect(Self.turn(&tenths, [1, 1, -1], route: .pinned(.tempo), from: 10 * ms) == ["92.6", "92.7", "92.6"])
        var halves = try Self.core("{ controls: { tempo: { resolution: 0.5 } } }")
        #expect(Self.turn(&halves, [1, 1], route: .pinned(.tempo), from: 10 * ms) == ["120.5", "121"])
        #expect(throws: FileLineError.self) { try Self.core("{ controls: { tempo: { resolution: 0.3 } } }") }
        do {
            _ = try Self.core("{\n controls: { tempo: { table: 'maelzel', resolution: 0.1 } } }")
            Issue.record("maelzel with a resolution was taken")
        } catch {
            let text = "\(error)"
            #expect(text.contains("f.json5") && text.contains("line 2") && text.contains("resolution"), "\(text)")
        }
    }

    @Test("a client's set keeps the tenth; a tapped tempo lands on the table; the wire carries 92.5 and whole tempos as integers")
    func wire() throws {
        var core = try Self.core()
        let (answer, broadcast) = core.handle(.setTempo(bpm: 92.54, range: nil, table: nil), at: 0)
        #expect(core.tempo.bpm == BPM(tenths: 925))
        #expect(String(decoding: broadcast[0].bytesWithoutSeq, as: UTF8.self).contains(#""bpm":92.5,"value":72,"phase":"set""#))
        #expect(String(decoding: answer.bytesWithoutSeq, as: UTF8.self).contains(#""tempo":{"bpm":92.5,"#))
        _ = core.handle(.setTempo(bpm: 96, range: nil, table: nil), at: 0)
        #expect(String(decoding: core.state(at: 0).bytesWithoutSeq, as: UTF8.self).contains(#""tempo":{"bpm":96,"#))
        for (index, time) in [0, 600, 1200, 1800].enumerated() { _ = index; _ = core.handle(.tap, at: Nanoseconds(time) * ms + 10_000 * ms) }
        #expect(core.tempo.bpm == 100, "taps 0.6 s apart are 100 BPM on the integer table")
        let hello = String(decoding: ServerMessage(.hello(version: "0.1.0", devices: []), at: 0).bytesWithoutSeq, as: UTF8.self)
        #expect(hello.contains(#""protocol":1,"minor":1,"#), "\(hello)")
    }
}
