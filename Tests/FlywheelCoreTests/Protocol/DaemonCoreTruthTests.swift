import FlywheelCore
import Testing

/// The core tells the truth: `set` follows the configuration's rules, tap replies stay within the
/// dial, and a reload ends every gesture it interrupts.
@Suite("Daemon core: truthful answers")
struct DaemonCoreTruthTests {
    static let ms: Nanoseconds = 1_000_000

    static func text(_ message: ServerMessage) -> String { String(decoding: message.bytes(seq: 1), as: UTF8.self) }

    @Test("an unknown mode of 20,000 bytes is named by its first 48 and an ellipsis, not repeated whole")
    func longModeName() throws {
        let name = String(repeating: "m", count: 20_000)
        let line = Array(#"{"cmd":"set","control":"mode","mode":"\#(name)"}"#.utf8)
        var core = DaemonCore()
        let (reply, _) = core.handle(try ClientCommand.parse(line), at: 0)
        #expect(reply.messageClass == .error)
        #expect(Self.text(reply).contains("\"" + String(repeating: "m", count: 48) + "…\\\""))
        #expect(reply.bytes(seq: 1).count < 300)
    }

    @Test("set range [1, 30] with the Maelzel table is refused, as the configuration refuses it")
    func maelzelOutsideRange() throws {
        let line = Array(#"{"cmd":"set","control":"tempo","range":[1,30],"table":"maelzel"}"#.utf8)
        var core = DaemonCore()
        let (reply, broadcast) = core.handle(try ClientCommand.parse(line), at: 0)
        #expect(reply.messageClass == .error)
        #expect(Self.text(reply).contains("out-of-range"))
        #expect(broadcast.isEmpty)
        #expect(core.tempo.dial.table == .integer)
        #expect(throws: FileLineError.self) {
            _ = try FlywheelConfiguration.parse(Array("{ controls: { tempo: { range: [1, 30], table: 'maelzel' } } }".utf8), file: "f.json5")
        }
    }

    @Test("taps a microsecond apart report the top of the range, not millions of BPM")
    func tapClamped() {
        var core = DaemonCore()
        var last: ServerMessage?
        for i in 0..<5 { last = core.handle(.tap, at: 1_000 * Self.ms + Nanoseconds(i) * 1_000).reply }
        #expect(Self.text(last!).contains("\"bpm\":300"))
        #expect(core.tempo.bpm == 300)
    }

    @Test("a reload during a scrub ends the scrub it began (cancelled within the arming time, committed after)")
    func reloadEndsScrub() {
        var configuration = FlywheelConfiguration()
        configuration.initialMode = .scrub
        var core = DaemonCore(configuration: configuration, scrubDurationSeconds: 200)
        let began = core.knob(by: 3, at: 1_000 * Self.ms)
        #expect(began.contains { Self.text($0).contains("\"phase\":\"began\"") })
        let (reloaded, ended) = core.reloaded(with: configuration, at: 1_050 * Self.ms)
        #expect(ended.contains { $0.messageClass == .scrub && Self.text($0).contains("\"phase\":\"cancelled\"") })
        #expect(reloaded.scrub.scrubber.gesture == nil)

        // Past the arming time the scrub commits where it is.
        core = DaemonCore(configuration: configuration, scrubDurationSeconds: 200)
        _ = core.knob(by: 3, at: 1_000 * Self.ms)
        _ = core.knob(by: 3, at: 1_100 * Self.ms)
        _ = core.knob(by: 3, at: 1_190 * Self.ms)
        let late = core.reloaded(with: configuration, at: 1_400 * Self.ms).messages
        #expect(late.contains { $0.messageClass == .scrub && (Self.text($0).contains("\"phase\":\"committed\"")) })
    }

    @Test("a reload while the tempo knob turns settles it")
    func reloadSettlesTempo() {
        var core = DaemonCore()
        let moved = core.knob(by: 2, at: 1_000 * Self.ms)
        #expect(moved.contains { Self.text($0).contains("\"phase\":\"began\"") })
        let ended = core.reloaded(with: FlywheelConfiguration(), at: 1_010 * Self.ms).messages
        #expect(ended.contains { $0.messageClass == .tempo && Self.text($0).contains("\"phase\":\"settled\"") })
    }
}
