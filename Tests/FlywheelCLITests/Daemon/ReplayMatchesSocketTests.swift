import FlywheelCore
import Glibc
import Testing

/// `flywheel replay` promises the messages a socket client receives. It runs flywheeld's own
/// pipeline in virtual time, so for the same input the two streams are equal — every class,
/// frames included, times relative to the device's `added` message identical to the nanosecond.
@Suite("flywheel replay equals the socket", .serialized)
struct ReplayMatchesSocketTests {
    /// Turns, a flick, a mode tap and turns in the other mode, on a ShuttleXpress; the ring and
    /// a lost-input gap come from the recordings below.
    static let mixedScenario = """
        # name: mixed gestures for the replay/socket equality
        device shuttlexpress
        seed 5
        counter 250
        turn +4 at 6/s
        turn +6 at 30/s
        flick +30/s
        hold 1500ms
        press BTN_5
        hold 100ms
        release BTN_5
        turn -3 at 5/s
        hold 1500ms

        """

    static func inputs() -> [(path: String, option: String, extra: [String])] {
        var template = Array("/tmp/flywheel-mixed-XXXXXX".utf8CString)
        let scenario = String(cString: mkdtemp(&template)!) + "/mixed.sim"
        RepositoryPaths.write(mixedScenario, to: scenario)
        return [
            (scenario, "--simulate", []),
            (RepositoryPaths.path("hardware/scenarios/flick.sim"), "--simulate", []),
            (RepositoryPaths.path("Tests/Golden/device-shuttlexpress.evemu"), "--replay", []),  // jog, ring, its silent return, a button
            (RepositoryPaths.path("Tests/Golden/device-powermate.evemu"), "--replay", []),  // deltas, a button, SYN_DROPPED: a gap
            // Push-and-turn fine control: tenths of a BPM on the wire (issue 34).
            (RepositoryPaths.path("Tests/Golden/hands/ec11-press-fine.sim"), "--simulate",
             ["--config", RepositoryPaths.path("Tests/Golden/hands/press-fine.json5")]),
        ]
    }

    /// The range of `key` and the digits (and dots) after it.
    static func field(_ key: String, in text: String) -> Range<String.Index>? {
        let keyCharacters = Array(key)
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].starts(with: keyCharacters) {
                let afterKey = text.index(index, offsetBy: keyCharacters.count)
                let end = text[afterKey...].firstIndex { !($0.isNumber || $0 == ".") } ?? text.endIndex
                return index..<end
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A line without its `seq`, its `time` replaced by nanoseconds after `origin`.
    static func normalised(_ line: String, origin: Int64) -> String {
        var text = line
        if let seq = field(#","seq":"#, in: text) { text.removeSubrange(seq) }
        guard let time = field(#""time":"#, in: text) else { return text }
        let nanoseconds = Self.nanoseconds(String(text[time].dropFirst(7)))
        text.replaceSubrange(time, with: "\"time\":+\(nanoseconds - origin)ns")
        return text
    }

    /// `12.345678901` → 12345678901, exactly.
    static func nanoseconds(_ seconds: String) -> Int64 {
        let parts = seconds.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts.count > 1 ? String(parts[1].prefix(9)) : ""
        let fraction = digits + String(repeating: "0", count: 9 - digits.count)
        return Int64(parts[0])! * 1_000_000_000 + Int64(fraction)!
    }

    static func timeText(_ line: String) -> String {
        guard let time = field(#""time":"#, in: line) else { return "0" }
        return String(line[time].dropFirst(7))
    }

    static func normalisedStream(_ lines: [String]) -> [String] {
        guard let first = lines.first else { return [] }
        let origin = nanoseconds(timeText(first))
        return lines.map { normalised($0, origin: origin) }
    }

    @Test("replay and socket streams are equal, frames included", arguments: 0..<5)
    func equal(_ index: Int) throws {
        let (path, option, extra) = Self.inputs()[index]
        let replay = ToolRun.run(["replay", path, "--frames", "60", "--duration", "214", "--hardware", RepositoryPaths.path("hardware")] + extra)
        #expect(replay.status == 0, "\(replay.err)")
        let expected = replay.out.split(separator: "\n").map(String.init)
        #expect(expected.count > 3)
        #expect(expected.contains { $0.contains(#""class":"frame""#) }, "the replay has frames")

        let daemon = try DaemonProcess([option, path, "--hold-until-clients", "2", "--frames", "60", "--scrub-duration", "214"] + extra)
        if index == 4 { #expect(expected.contains { $0.contains(#""bpm":120.5,"#) }, "the fine turn's tenths") }
        defer { _ = daemon.stop() }
        let watcher = try TestClient(daemon.socketPath)
        #expect(watcher.rawLine()?.contains(#""class":"hello""#) == true)
        watcher.send(#"{"cmd":"watch","frames":true}"#)
        #expect(watcher.rawLine()?.contains(#""class":"watch""#) == true)
        // The second client starts the playback, after the watcher's subscription is in force.
        let starter = try TestClient(daemon.socketPath)
        var received: [String] = []
        while received.count < expected.count, let line = watcher.rawLine() { received.append(line) }
        _ = starter
        #expect(received.count == expected.count)
        let (want, got) = (Self.normalisedStream(expected), Self.normalisedStream(received))
        for (offset, pair) in zip(want, got).enumerated() where pair.0 != pair.1 {
            Issue.record("message \(offset) differs:\n replay: \(pair.0)\n socket: \(pair.1)")
            break
        }
        #expect(want == got)
        // Nothing more was due: a ping is answered next.
        watcher.send(#"{"cmd":"ping"}"#)
        #expect(watcher.rawLine()?.contains(#""class":"pong""#) == true)
    }
}
