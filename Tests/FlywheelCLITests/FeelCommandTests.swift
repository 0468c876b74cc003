import Glibc
import FlywheelCore
import Testing

@Suite("flywheel plot and flywheel replay")
struct FeelCommandTests {
    static let flick = RepositoryPaths.path("hardware/scenarios/flick.sim")

    static func lines(_ text: String) -> [JSONValue] {
        text.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
    }

    @Test("replay of a flick lands on the detent its momentum projects")
    func flickLands() throws {
        // The prediction, made independently of the replay: decode the scenario's GPIO edges, fit the
        // release velocity over the last 100 ms, project with k = 4 /s and round.
        let edges = ToolRun.run(["sim", Self.flick, "--emit", "edges"])
        let file = "/tmp/flywheel-flick-\(getpid()).edges"
        RepositoryPaths.write(edges.out, to: file)
        defer { unlink(file) }
        let detents = Self.lines(ToolRun.run(["decode", file]).out)
        #expect(detents.count == 6)
        var estimator = VelocityEstimator()
        var lastTime: Int64 = 0
        for detent in detents {
            let seconds = try #require(detent["t"]?.doubleValue)
            lastTime = Int64((seconds * 1e9).rounded())
            estimator.add(detent["position"]!.doubleValue!, at: lastTime)
        }
        let velocity = estimator.velocity(atRelease: lastTime)
        #expect(velocity > 20 && velocity < 40)
        let predicted = 100 + Int((6 + velocity / 4).rounded())

        // The prediction is the unaccelerated feel's (while the hand turns a detent is a step).
        let config = "/tmp/flywheel-flick-\(getpid()).json5"
        RepositoryPaths.write(#"{ controls: { tempo: { acceleration: "off" } } }"#, to: config)
        defer { unlink(config) }
        let replay = Self.lines(ToolRun.run(["replay", Self.flick, "--config", config]).out)
        // The last message is the played device's removal at the scenario's end; the tempo's last before it.
        #expect(replay.last?["class"]?.stringValue == "device" && replay.last?["action"]?.stringValue == "removed")
        let settled = try #require(replay.last { $0["class"]?.stringValue == "tempo" })
        #expect(settled["phase"]?.stringValue == "settled")
        #expect(settled["value"] == .int(predicted), "settled at \(settled.encoded()), predicted \(predicted)")
        // Momentum carried it past the hand: more detent events than the hand made.
        #expect(replay.filter { $0["phase"]?.stringValue == "moved" }.count == predicted - 100)
        // Frames only when asked, and only while moving.
        let framed = Self.lines(ToolRun.run(["replay", Self.flick, "--frames", "60", "--config", config]).out)
        let frames = framed.filter { $0["class"]?.stringValue == "frame" }
        #expect(!frames.isEmpty && replay.allSatisfy { $0["class"]?.stringValue != "frame" })
        let lastFrameTime = frames.last!["time"]!.doubleValue!
        #expect(lastFrameTime <= settled["time"]!.doubleValue!)
    }

    @Test("plot CSV: header, a row every 1/240 s, ends at rest on the target")
    func csv() throws {
        let run = ToolRun.run(["plot", "--flick", "30", "--from", "0", "--format", "csv"])
        #expect(run.status == 0, "\(run.err)")
        let rows = run.out.split(separator: "\n")
        #expect(rows.first == "t,position,velocity,detent,seconds")
        let second = rows[2].split(separator: ",")
        #expect(second[0] == "0.004167")
        let last = rows.last!.split(separator: ",")
        let target = Motion(releasedAt: 0, position: 0, velocity: 30, reportedDetent: 0).target
        #expect(Double(last[1]) == Double(target) && Double(last[2]) == 0 && Int(last[3]) == target)
        // The reported detent column never goes back.
        let detents = rows.dropFirst().map { Int($0.split(separator: ",")[3])! }
        #expect(detents == detents.sorted())
    }

    @Test("plot SVG draws position, the reported detent and velocity with detent lines")
    func svg() {
        let run = ToolRun.run(["plot", "--flick", "-12", "--from", "20", "--damping", "snappy", "--format", "svg"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(run.out.hasSuffix("</svg>\n"))
        #expect(run.out.components(separatedBy: "<path ").count - 1 == 3)
        #expect(run.out.contains("ζ 0.60"))
    }

    @Test("replay --control volume: the flick drives the volume, as configured, and nothing else")
    func replayVolume() throws {
        let config = "/tmp/flywheel-volume-\(getpid()).json5"
        RepositoryPaths.write("{ controls: { volume: { cap: 80, start: 40, step: 4 } } }", to: config)
        defer { unlink(config) }
        let messages = Self.lines(ToolRun.run(["replay", Self.flick, "--control", "volume", "--config", config]).out)
        let volumes = messages.filter { $0["class"] == .string("volume") }
        #expect(!messages.contains { $0["class"] == .string("tempo") || $0["class"] == .string("scrub") })
        let moved = volumes.filter { $0["phase"] == .string("moved") }.compactMap { $0["volume"]?.doubleValue }
        #expect(moved.count >= 6 && zip(moved.dropFirst(), moved).allSatisfy { $0 - $1 == 4 }, "\(moved)")
        #expect(moved.first == 44 && volumes.last?["phase"] == .string("settled") && volumes.last?["volume"]?.doubleValue == moved.last)
    }

    @Test("bad feel options are refused with one sentence")
    func badOptions() {
        #expect(ToolRun.run(["plot", "--flick", "3", "--damping", "7", "--format", "csv"]).err
                == "flywheel: --damping takes a ratio from 0.1 to 2 or standard, snappy, critical; not '7'.\n")
        #expect(ToolRun.run(["plot", "--from", "0", "--format", "csv"]).err == "flywheel: 'plot' needs --flick V (detents per second); 'flywheel plot --help' lists its options.\n")
        #expect(ToolRun.run(["replay", Self.flick, "--control", "pitch"]).err == "flywheel: --control takes tempo, scrub, volume or switch, not 'pitch'.\n")
    }
}

extension String {
    func components(separatedBy separator: String) -> [Substring] {
        split(separator: separator, omittingEmptySubsequences: false)
    }
}

@Suite("flywheel replay on touch panels")
struct TouchReplayTests {
    static let recording = RepositoryPaths.path("../shared/fixtures/touch-evemu/wetab.event")

    @Test("a real touch recording replays as a ring knob: one gesture per touch that moved it",
          .enabled(if: access(recording, R_OK) == 0, SharedFixtures.absent))
    func wetab() {
        let run = ToolRun.run(["replay", Self.recording])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
        #expect(!lines.isEmpty)
        #expect(lines.first?["class"] == .string("device") && lines.first?["action"] == .string("added"))
        // The device goes at the recording's end (the knob may still settle after it).
        #expect(lines.filter { $0["class"] == .string("device") && $0["action"] == .string("removed") }.count == 1)
        #expect(lines.dropFirst().allSatisfy { $0["class"] == .string("tempo") || $0["action"] == .string("removed") })
        #expect(lines.filter { $0["phase"] == .string("began") }.count <= 11)  // at most one per touch
    }
}
