import Testing
@testable import FlywheelCore

/// `controls.tempo.bounds` and `controls.volume.bounds`: what a dial does at its ends — `rubber`
/// (the default: overscroll and a spring back), `hard` (a dead stop) or `wrap` (a circular list, as
/// the Click metronome's selector: past 300 BPM comes 20).
@Suite("Configuration: a dial's bounds")
struct DialBoundsConfigurationTests {
    static let ms: Nanoseconds = 1_000_000

    static func core(_ text: String) throws -> DaemonCore {
        DaemonCore(configuration: try FlywheelConfiguration.parse(Array(text.utf8), file: "f.json5"))
    }

    /// Knob detents (+1 or −1) 300 ms apart on `route`, then the core to rest: the values the
    /// control's messages carry (`bpm` or `volume`), in order, and the state afterwards.
    static func turn(_ core: inout DaemonCore, _ steps: [Int], route: Control = .tempo, touching: Bool = false) -> [Int] {
        var messages: [ServerMessage] = []
        for (index, step) in steps.enumerated() {
            messages += core.knob(by: Double(step), at: Nanoseconds(index + 1) * 300 * ms, touching: touching, route: .pinned(route))
        }
        if touching { messages += core.lift(at: Nanoseconds(steps.count + 1) * 300 * ms, route: .pinned(route)) }
        while let deadline = core.nextDeadline { messages += core.advance(to: deadline) }
        let key = route == .tempo ? "bpm" : "volume"
        return messages.compactMap { message -> Int? in
            guard message.messageClass == (route == .tempo ? .tempo : .volume),
                let object = try? JSONParser.parse(message.bytesWithoutSeq), object["phase"]?.stringValue == "moved"
            else { return nil }
            return object[key]?.doubleValue.map { Int($0) }
        }
    }

    @Test("wrap: turning on past 300 BPM comes round to 20, and back again")
    func tempoWraps() throws {
        var core = try Self.core("{ controls: { tempo: { bpm: 299, bounds: 'wrap' } } }")
        #expect(Self.turn(&core, [1, 1, 1, -1, -1]) == [300, 20, 21, 20, 300])
        #expect(core.tempo.bpm == 300)
        #expect(core.currentState.tempoValue == 280)
        let state = String(decoding: core.state(at: 0).bytesWithoutSeq, as: UTF8.self)
        #expect(state.contains(#""table":"integer","bounds":"wrap"}"#) && state.contains(#""step":2,"bounds":"rubber"}"#), "\(state)")
    }

    @Test("wrap on the volume: past the cap comes 0")
    func volumeWraps() throws {
        var core = try Self.core("{ controls: { volume: { cap: 10, step: 5, start: 10, bounds: 'wrap' } } }")
        #expect(Self.turn(&core, [1, 1], route: .volume) == [0, 5])
    }

    @Test("hard: a dead stop — a finger pulling past the end does nothing and moving back moves at once")
    func hardStop() throws {
        var hard = try Self.core("{ controls: { tempo: { bpm: 299, bounds: 'hard' } } }")
        #expect(Self.turn(&hard, [1, 1, 1, 1, -1], touching: true) == [300, 299])
        // The default rubber band: the pull past the end is given back first.
        var rubber = try Self.core("{ controls: { tempo: { bpm: 299 } } }")
        #expect(Self.turn(&rubber, [1, 1, 1, 1, -1], touching: true) == [300])
    }

    @Test("a set keeps the bounds; the frames of a wrapping dial never sweep across the table")
    func setKeepsBounds() throws {
        var core = try Self.core("{ controls: { tempo: { bounds: 'wrap' } } }")
        _ = core.handle(.setTempo(bpm: 300, range: nil, table: nil), at: 0)
        #expect(core.tempo.dial.bounds == .wrap)
        var knob = core.tempo.knob
        _ = knob.move(by: 0.5, at: 100 * Self.ms)
        let value = try #require(knob.frame(at: 100 * Self.ms)?.value) / TempoControl.unitsPerValue  // the dial's tenths, in BPM
        #expect(value == 300 || value == 20, "half way round the seam shows \(value)")
    }

    @Test("an unknown bounds is named with its line and key")
    func unknown() {
        do throws(FileLineError) {
            _ = try FlywheelConfiguration.parse(Array("{ controls: { tempo: { bounds: 'bouncy' } } }".utf8), file: "f.json5")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "f.json5 line 1: key 'controls.tempo.bounds' must be one of \"rubber\", \"hard\", \"wrap\", got \"bouncy\".")
        }
    }
}
