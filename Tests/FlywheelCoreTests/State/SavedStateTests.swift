@testable import FlywheelCore
import Testing

/// The state file's contents (issue 45): what is kept, read back exactly, every kind of broken
/// contents refused with a reason, and the configuration's bounds applied to what is restored.
@Suite("Saved state")
struct SavedStateTests {
    static func configuration(_ text: String = "{}") throws -> FlywheelConfiguration {
        try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5")
    }

    @Test("a tempo to its tenth, the volume, the mode and a client's dial are read back as written")
    func roundTrip() throws {
        let plain = SavedState(bpm: BPM(tenths: 925), volume: 37, mode: .scrub)
        #expect(try SavedState.decode(plain.encoded()) == plain)
        #expect(String(decoding: plain.encoded(), as: UTF8.self) == "{\"version\":1,\"bpm\":92.5,\"volume\":37,\"mode\":\"scrub\"}\n")
        let dial = SavedState(
            bpm: 60, volume: 0, mode: .volume,
            clientDial: .init(range: 40...208, table: .maelzel, configuredRange: 20...300, configuredTable: .integer))
        #expect(try SavedState.decode(dial.encoded()) == dial)
    }

    @Test("empty, truncated, garbage, not an object, no version, a later version, out-of-range values: each refused, saying why")
    func broken() {
        let cases: [(String, String)] = [
            ("", "empty"), ("{\"version\":1,\"bpm\":92", "not a state file"), ("\u{0}\u{1}garbage\u{ff}", "not a state file"),
            ("[1,2]", "not a JSON object"), ("{\"bpm\":96}", "no \"version\""), ("{\"version\":2,\"bpm\":96,\"volume\":3,\"mode\":\"tempo\"}", "later version"),
            ("{\"version\":1e300,\"bpm\":96,\"volume\":3,\"mode\":\"tempo\"}", "later version"),
            ("{\"version\":1,\"bpm\":1e300,\"volume\":3,\"mode\":\"tempo\"}", "\"bpm\""), ("{\"version\":1,\"bpm\":96,\"volume\":101,\"mode\":\"tempo\"}", "\"volume\""),
            ("{\"version\":1,\"bpm\":96,\"volume\":-1,\"mode\":\"tempo\"}", "\"volume\""), ("{\"version\":1,\"bpm\":96,\"volume\":3,\"mode\":\"disco\"}", "\"mode\""),
            ("{\"version\":1,\"bpm\":96,\"volume\":3,\"mode\":\"tempo\",\"range\":[300,20],\"table\":\"integer\"}", "\"range\""),
            ("{\"version\":1.5,\"bpm\":96,\"volume\":3,\"mode\":\"tempo\"}", "no \"version\""),
            // A dial no client or configuration could set (TempoRules: 1 ≤ low < high ≤ 1000).
            ("{\"version\":1,\"bpm\":9999,\"volume\":3,\"mode\":\"tempo\"}", "\"bpm\""),
            ("{\"version\":1,\"bpm\":96,\"volume\":3,\"mode\":\"tempo\",\"range\":[1,10000],\"table\":\"integer\",\"configured_range\":[20,300],\"configured_table\":\"integer\"}", "\"range\""),
        ]
        for (text, reason) in cases {
            #expect(throws: SavedState.Problem.self) { try SavedState.decode(Array(text.utf8)) }
            do {
                _ = try SavedState.decode(Array(text.utf8))
            } catch {
                #expect(error.description.contains(reason), "\(text): \(error.description)")
            }
        }
    }

    @Test("restored under the configuration: a tempo outside its range clamped, a volume over restore_max or the cap starts there, a mode not configured is not taken, each said")
    func bounds() throws {
        let configuration = try Self.configuration("{ controls: { tempo: { range: [40, 200] }, volume: { cap: 80, restore_max: 60 } } }")
        var core = DaemonCore(configuration: configuration)
        let notes = core.restore(SavedState(bpm: 250, volume: 90, mode: .volume), configured: configuration.tempoDial, restoreMaxVolume: configuration.volumeRestoreMax)
        #expect(core.tempo.bpm == 200 && core.volume.volume == 60 && core.mode.active == .tempo)
        #expect(notes.count == 4, "\(notes)")
        #expect(notes.contains { $0.contains("250 BPM") && $0.contains("40–200") })
        #expect(notes.contains { $0.contains("restore_max 60") })
        var quiet = DaemonCore(configuration: configuration)
        #expect(quiet.restore(SavedState(bpm: BPM(tenths: 965), volume: 45, mode: .scrub), configured: configuration.tempoDial, restoreMaxVolume: 60).isEmpty)
        #expect(quiet.tempo.bpm == BPM(tenths: 965) && quiet.volume.volume == 45 && quiet.mode.active == .scrub, "\(quiet.tempo.bpm) \(quiet.volume.volume) \(quiet.mode.active)")
        #expect(FlywheelConfiguration().volumeRestoreMax == 50, "the default")
    }

    @Test("a client's dial is restored while the configuration has the dial it replaced, and dropped, saying so, once it changed")
    func clientDial() throws {
        let configuration = try Self.configuration()
        var core = DaemonCore(configuration: configuration)
        _ = core.handle(.setTempo(bpm: 66, range: 40...208, table: .maelzel), at: 0)
        let saved = core.savedState(configured: configuration.tempoDial)
        #expect(saved.clientDial?.range == 40...208 && saved.clientDial?.configuredRange == 20...300)
        var restored = DaemonCore(configuration: configuration)
        #expect(restored.restore(saved, configured: configuration.tempoDial, restoreMaxVolume: 50).isEmpty)
        #expect(restored.tempo.dial.range == 40...208 && restored.tempo.dial.table == .maelzel && restored.tempo.bpm == 66)
        let changed = try Self.configuration("{ controls: { tempo: { range: [30, 250] } } }")
        var later = DaemonCore(configuration: changed)
        let notes = later.restore(saved, configured: changed.tempoDial, restoreMaxVolume: 50)
        #expect(later.tempo.dial.range == 30...250 && later.tempo.bpm == 66 && notes.count == 1, "\(notes)")
        #expect(DaemonCore(configuration: configuration).savedState(configured: configuration.tempoDial).clientDial == nil, "no client dial: none kept")
    }

    @Test("a reload with the configuration's dial unchanged keeps a client's range and table and the volume to the percent; a changed dial replaces the client's")
    func reloadKeepsClientDial() throws {
        let configuration = try Self.configuration()
        var core = DaemonCore(configuration: configuration)
        _ = core.restore(
            SavedState(bpm: 90, volume: 43, mode: .tempo, clientDial: .init(range: 40...208, table: .maelzel, configuredRange: 20...300, configuredTable: .integer)),
            configured: configuration.tempoDial, restoreMaxVolume: 50)
        let same = core.reloaded(with: configuration, at: 0, previousDial: configuration.tempoDial).core
        #expect(same.tempo.dial.range == 40...208 && same.tempo.dial.table == .maelzel && same.tempo.bpm == 90 && same.volume.volume == 43,
                "\(same.tempo.dial.range) \(same.tempo.dial.table) \(same.tempo.bpm) \(same.volume.volume)")
        let changed = try Self.configuration("{ controls: { tempo: { range: [30, 250] } } }")
        let other = core.reloaded(with: changed, at: 0, previousDial: configuration.tempoDial).core
        #expect(other.tempo.dial.range == 30...250 && other.tempo.bpm == 90)
    }

    @Test("a client's set keeps the configured acceleration (it was reset to the default)")
    func setKeepsAcceleration() throws {
        var core = DaemonCore(configuration: try Self.configuration("{ controls: { tempo: { acceleration: 'off' } } }"))
        let before = core.tempo.knob.acceleration
        _ = core.handle(.setTempo(bpm: 96, range: nil, table: nil), at: 0)
        #expect(core.tempo.knob.acceleration == before)
    }
}
