import FlywheelCore
import Glibc
import Testing

/// A finger on a tablet's touch strip (ABS_RX 0…4096, 32 detents end to end, ABS_MISC the touch),
/// recorded as evemu and run through `flywheel replay` — flywheeld's own pipeline: the tap hint,
/// the mode switch driven by the strip, the rubber band's spring-back and a wrapping tempo dial.
@Suite("Touch strips through flywheel replay")
struct StripReplayTests {
    /// An evemu recording of the strip: each point a time in seconds and the finger's ABS_RX, or
    /// nil where it lifts.
    static func recording(_ points: [(Double, Int?)]) -> String {
        var text = "# EVEMU 1.3\nN: Wacom Intuos4 Pad\nI: 0003 056a 00b9 0100\nA: 03 0 4096 0 0 0\nA: 28 0 0 0 0 0\n"
        for (time, value) in points {
            let micro = Int((time * 1e6).rounded())
            let fraction = String(micro % 1_000_000)
            let stamp = "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
            if let value {
                text += "E: \(stamp) 0003 0003 \(value)\nE: \(stamp) 0003 0028 15\nE: \(stamp) 0000 0000 0\n"
            } else {
                text += "E: \(stamp) 0003 0003 0\nE: \(stamp) 0003 0028 0\nE: \(stamp) 0000 0000 0\n"
            }
        }
        return text
    }

    /// Replays `points` with `arguments` (and `config` as a configuration file); the messages.
    static func replay(_ points: [(Double, Int?)], _ arguments: [String], config: String? = nil) throws -> [JSONValue] {
        var template = Array("/tmp/flywheel-strip-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let path = directory + "/strip.evemu"
        RepositoryPaths.write(recording(points), to: path)
        var extra: [String] = []
        if let config {
            RepositoryPaths.write(config, to: directory + "/flywheel.json5")
            extra = ["--config", directory + "/flywheel.json5"]
        }
        let run = ToolRun.run(["replay", path] + arguments + extra)
        #expect(run.status == 0, "\(run.err)")
        return try run.out.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
    }

    static func of(_ messages: [JSONValue], _ className: String) -> [JSONValue] {
        messages.filter { $0["class"]?.stringValue == className }
    }

    @Test("a tap on the first half of a scrub strip pushes the bar towards the end: a hint, and frames that push and settle without a seek")
    func tapHint() throws {
        let messages = try Self.replay([(1.0, 1024), (1.08, nil)], ["--control", "scrub", "--frames", "60", "--duration", "214", "--position", "100"])
        let hints = Self.of(messages, "hint")
        try #require(hints.count == 1, "\(messages.map { $0.encoded() })")
        #expect(hints[0]["control"]?.stringValue == "scrub")
        #expect(hints[0]["direction"]?.doubleValue == 1)
        #expect(Self.of(messages, "scrub").isEmpty, "a tap does not scrub")
        let frames = Self.of(messages, "frame")
        let offsets = frames.compactMap { $0["offset"]?.doubleValue }
        #expect((offsets.max() ?? 0) > 0.2, "pushed towards the end: \(offsets)")
        #expect(offsets.contains { $0 < 0 }, "falls back past the rest")
        #expect(abs(offsets.last ?? 1) < 0.01)
        #expect(frames.allSatisfy { $0["value"]?.doubleValue == 100 }, "the position never moves")
        // The second half pushes the other way.
        let right = try Self.replay([(1.0, 3500), (1.05, nil)], ["--control", "scrub", "--duration", "214", "--position", "100"])
        #expect(Self.of(right, "hint").first?["direction"]?.doubleValue == -1)
        // A swipe is no tap.
        let swipe = try Self.replay([(1.0, 1024), (1.02, 1152), (1.04, 1280), (1.3, nil)], ["--control", "scrub", "--duration", "214", "--position", "100"])
        #expect(Self.of(swipe, "hint").isEmpty)
    }

    static let threeModes = "{ controls: { mode: { segments: ['tempo', 'scrub', 'volume'], initial: 'tempo' } } }"

    @Test("a strip routed to the mode switch: a tap selects the segment under the finger")
    func switchTap() throws {
        let messages = try Self.replay([(1.0, 3900), (1.05, nil)], ["--control", "switch"], config: Self.threeModes)
        #expect(Self.of(messages, "mode").map { $0["mode"]?.stringValue } == ["volume"])
        #expect(Self.of(messages, "tempo").isEmpty && Self.of(messages, "volume").isEmpty, "the strip drives no control")
    }

    @Test("a partial pan snaps to the nearest segment: past half way it switches, short of it it stays")
    func switchPan() throws {
        // From the first third (tempo) to 0.45 of the strip: the bubble's centre is past half way to scrub.
        var points: [(Double, Int?)] = [(1.0, 400)]
        for step in 1...7 { points.append((1.0 + Double(step) * 0.02, 400 + step * 200)) }  // to 1800 (0.44)
        points.append((1.3, nil))
        let over = try Self.replay(points, ["--control", "switch"], config: Self.threeModes)
        #expect(Self.of(over, "mode").map { $0["mode"]?.stringValue } == ["scrub"])
        // From 0.1 to 0.25 only: short of half way, it snaps back to tempo — no mode message.
        let short = try Self.replay([(1.0, 400), (1.02, 700), (1.04, 1000), (1.3, nil)], ["--control", "switch"], config: Self.threeModes)
        #expect(Self.of(short, "mode").isEmpty)
    }

    @Test("pulled 6 detents past 300 BPM and let go: the frames never show less than 300 and it settles within 250 ms")
    func rubberBand() throws {
        // From 294 BPM (detent 274): 12 detents up, 20 ms apart, still for 80 ms, lifted.
        var points: [(Double, Int?)] = [(1.0, 512)]
        for step in 1...12 { points.append((1.0 + Double(step) * 0.02, 512 + step * 128)) }
        points.append((1.32, nil))
        let messages = try Self.replay(points, ["--control", "tempo", "--bpm", "294", "--frames", "240"])
        let lift = 0.32  // the replay's clock starts at the first input, 1.00 s
        let offsets = Self.of(messages, "frame").filter { ($0["time"]?.doubleValue ?? 0) >= lift }.compactMap { $0["offset"]?.doubleValue }
        #expect(!offsets.isEmpty && (offsets.min() ?? 0) >= 280 - 1e-6, "frames went down to \(offsets.min() ?? 0)")
        let settled = try #require(Self.of(messages, "tempo").last)
        #expect(settled["phase"]?.stringValue == "settled" && settled["bpm"]?.doubleValue == 300)
        let after = (settled["time"]?.doubleValue ?? 99) - lift
        #expect(after <= 0.25, "settled \(after) s after the lift")
    }

    @Test("a wrapping tempo dial (controls.tempo.bounds 'wrap') goes on from 300 BPM to 20")
    func wrap() throws {
        let points: [(Double, Int?)] = [(1.0, 512), (1.3, 640), (1.6, 768), (1.9, nil)]
        let messages = try Self.replay(points, ["--control", "tempo"], config: "{ controls: { tempo: { bpm: 300, bounds: 'wrap' } } }")
        let moved = Self.of(messages, "tempo").filter { $0["phase"]?.stringValue == "moved" }.compactMap { $0["bpm"]?.doubleValue }
        #expect(moved == [20, 21])
    }
}

/// The strip as the mode switch, through `flywheel replay` with frames: the switch's own frames.
@Suite("The mode switch's frames through flywheel replay")
struct SwitchFramesReplayTests {
    @Test("strip-mode-switch.evemu with --frames 60: frames of control mode that snap onto tempo's segment and stop")
    func snapFrames() throws {
        let run = ToolRun.run([
            "replay", RepositoryPaths.path("Tests/Golden/hands/strip-mode-switch.evemu"), "--control", "switch", "--frames", "60",
            "--hardware", RepositoryPaths.path("hardware"),
        ])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let modeFrames = try lines.filter { $0.contains(#""control":"mode""#) }.map { try JSONParser.parse(Array($0.utf8)) }
        let lastMode = try #require(lines.lastIndex { $0.contains(#""class":"mode""#) })
        let snap = modeFrames.filter { ($0["time"]?.doubleValue ?? 0) >= 1.5 }
        #expect(snap.count > 10, "the snap after the pan's lift is animated")
        #expect(snap.compactMap { $0["value"]?.doubleValue }.min().map { $0 < 0 } == true, "with the spring's overshoot")
        #expect(abs(snap.last?["offset"]?.doubleValue ?? 1) < 0.01, "settling on the segment")
        #expect(lines[lastMode].contains(#""mode":"tempo""#))
    }
}
