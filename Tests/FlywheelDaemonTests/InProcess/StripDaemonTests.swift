import FlywheelCore
import FlywheelFormats
import Glibc
import Testing

/// The touch-strip cases through flywheeld's daemon serving a replayed strip recording on its
/// socket, in this process and in virtual time: the rubber band's spring-back, a cancelled scrub
/// gliding home, the tap hint.
@Suite("Touch strips through flywheeld", .serialized)
@MainActor
struct StripDaemonTests {
    /// A Wacom pad's strip: at each (seconds, value) the finger is at `value`, or lifted (nil).
    static func recording(_ points: [(Double, Int?)]) -> String {
        var recording = EvemuRecording()
        recording.name = "Wacom Intuos4 Pad"
        (recording.bus, recording.vendor, recording.product, recording.version) = (0x0003, 0x056a, 0x00b9, 0x0100)
        recording.absoluteAxes = [.init(code: 0x03, minimum: 0, maximum: 4096), .init(code: 0x28, minimum: 0, maximum: 0)]
        for (seconds, value) in points {
            let time = Nanoseconds((seconds * 1e6).rounded()) * 1000
            recording.events += [
                InputEvent(timeNanoseconds: time, type: 3, code: 0x03, value: Int32(value ?? 0)),
                InputEvent(timeNanoseconds: time, type: 3, code: 0x28, value: value == nil ? 0 : 15),
                InputEvent(timeNanoseconds: time, type: 0, code: 0, value: 0),
            ]
        }
        return recording.text()
    }

    /// A daemon replaying `points` under `config`; a client watching every class with frames (its
    /// `command` answered before the playback starts), and the time of the device's `added` message.
    static func serve(_ points: [(Double, Int?)], config: String, command: String? = nil) throws -> (daemon: InProcessDaemon, watcher: InProcessClient, starter: InProcessClient, start: Double) {
        var template = Array("/tmp/flywheel-strip-daemon-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        try Self.write(recording(points), to: directory + "/strip.evemu")
        try Self.write(config, to: directory + "/flywheel.json5")
        let daemon = try InProcessDaemon([
            "--replay", directory + "/strip.evemu", "--config", directory + "/flywheel.json5", "--hold-until-clients", "2",
            "--frames", "120", "--scrub-duration", "214",
        ])
        let watcher = try daemon.connect()
        #expect(try watcher.next()?["class"]?.stringValue == "hello")
        try watcher.send(#"{"cmd":"watch","frames":true}"#)
        #expect(try watcher.next()?["class"]?.stringValue == "watch")
        if let command {  // answered before the playback starts
            try watcher.send(command)
            #expect(try watcher.next()?["class"]?.stringValue == "state")
        }
        let starter = try daemon.connect()
        let added = try #require(try watcher.next { $0["class"]?.stringValue == "device" })
        return (daemon, watcher, starter, added["time"]?.doubleValue ?? 0)
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw HandsError("cannot write \(path)") }
        defer { fclose(file) }
        fputs(text, file)
    }

    @Test("pulled 6 detents past 300 BPM: frames stay at the end or past it after the lift, settled within 250 ms")
    func rubberBand() throws {
        var points: [(Double, Int?)] = [(1.0, 512)]
        for step in 1...12 { points.append((1.0 + Double(step) * 0.02, 512 + step * 128)) }
        points.append((1.32, nil))
        let served = try Self.serve(points, config: "{ controls: { tempo: { bpm: 294 } } }")
        defer { served.daemon.stop() }
        let lift = served.start + 0.32
        var lowest = Double.infinity
        var settled: JSONValue?
        while let message = try served.watcher.next() {
            let time = message["time"]?.doubleValue ?? 0
            if message["class"]?.stringValue == "frame", time >= lift { lowest = min(lowest, message["offset"]?.doubleValue ?? 0) }
            if message["class"]?.stringValue == "tempo", message["phase"]?.stringValue == "settled" { settled = message; break }
        }
        let rest = try #require(settled)
        #expect(rest["bpm"]?.doubleValue == 300)
        #expect(lowest >= 280 - 1e-6, "frames went down to \(lowest)")
        #expect((rest["time"]?.doubleValue ?? 99) - lift <= 0.25)
    }

    @Test("a quick swipe on the scrub strip: cancelled at the lift, then frames glide home to the origin")
    func cancelGlides() throws {
        let points: [(Double, Int?)] = [(1.0, 1024), (1.02, 1152), (1.04, 1280), (1.06, 1536), (1.1, nil)]
        let served = try Self.serve(
            points, config: "{ controls: { mode: { initial: 'scrub' } } }", command: #"{"cmd":"set","control":"scrub","duration":214,"position":100}"#)
        defer { served.daemon.stop() }
        let cancel = try #require(try served.watcher.next { $0["phase"]?.stringValue == "cancelled" })
        #expect(abs((cancel["time"]?.doubleValue ?? 0) - (served.start + 0.1)) < 1e-6, "cancelled at the lift")
        var values: [Double] = []
        while let frame = try served.watcher.next(where: { $0["class"]?.stringValue == "frame" || $0["phase"]?.stringValue == "moved" }) {
            #expect(frame["class"]?.stringValue == "frame", "a scrub moved after the cancel")
            let value = frame["value"]?.doubleValue ?? 0
            values.append(value)
            if abs(value - 100) < 0.01 && values.count > 3 { break }
        }
        #expect(values.count > 3 && (values.first ?? 0) > 103 && abs((values.last ?? 0) - 100) < 0.01, "\(values)")
    }

    @Test("a tap on the scrub strip: a hint message and frames that push the bar and settle at the same position")
    func tapHint() throws {
        let served = try Self.serve([(1.0, 1024), (1.08, nil)], config: "{ controls: { mode: { initial: 'scrub' } } }")
        defer { served.daemon.stop() }
        let hint = try #require(try served.watcher.next { $0["class"]?.stringValue == "hint" })
        #expect(hint["control"]?.stringValue == "scrub" && hint["direction"]?.doubleValue == 1)
        var offsets: [Double] = []
        while let frame = try served.watcher.next(where: { $0["class"]?.stringValue == "frame" }) {
            offsets.append(frame["offset"]?.doubleValue ?? 0)
            if offsets.count > 3 && offsets.contains(where: { $0 < 0 }) { break }
        }
        #expect((offsets.max() ?? 0) > 0.2 && offsets.contains { $0 < 0 })
    }

    @Test("a wrapping tempo dial (bounds 'wrap') goes on from 300 BPM to 20, and its state says so")
    func wrap() throws {
        let served = try Self.serve(
            [(1.0, 512), (1.3, 640), (1.6, 768), (1.9, nil)], config: "{ controls: { tempo: { bpm: 300, bounds: 'wrap' } } }")
        defer { served.daemon.stop() }
        var moved: [Double] = []
        while let tempo = try served.watcher.next(where: { $0["class"]?.stringValue == "tempo" }), tempo["phase"]?.stringValue != "settled" {
            if tempo["phase"]?.stringValue == "moved" { moved.append(tempo["bpm"]?.doubleValue ?? 0) }
        }
        #expect(moved == [20, 21])
        try served.watcher.send(#"{"cmd":"get"}"#)
        let state = try #require(try served.watcher.next { $0["class"]?.stringValue == "state" })
        #expect(state["tempo"]?["bounds"]?.stringValue == "wrap" && state["tempo"]?["bpm"]?.doubleValue == 21)
    }
}
