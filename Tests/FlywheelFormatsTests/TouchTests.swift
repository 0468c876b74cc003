import FlywheelCore
import FlywheelIO
import Testing
@testable import FlywheelFormats

/// Touch panels through evemu: the real recordings, and circles drawn on a ring in protocols A and B.
@Suite("Touch tracking and touch knobs")
struct TouchTests {
    struct Recording: Sendable, CustomTestStringConvertible {
        let name: String, touches: Int
        var testDescription: String { name }
    }

    // Touch-downs: wetab's 11 are documented in ../shared/fixtures/README.md; ntrig's and bcm5974's
    // come from an independent count (a few lines of Python over the E: lines, run while writing this).
    static let recordings: [Recording] = [.init(name: "wetab", touches: 11), .init(name: "ntrig-dell-xt2", touches: 1), .init(name: "bcm5974", touches: 1)]

    @Test("the real touch recordings track without error and count their touches",
          .enabled(if: FixturePaths.touchPresent, FixturePaths.absent), arguments: recordings)
    func realRecordings(_ recording: Recording) throws {
        let base = FixturePaths.shared + "/touch-evemu/" + recording.name
        let description = try EvemuRecording.parse(try FileSystem.readFile(base + ".prop"), file: base + ".prop")
        let events = try EvemuRecording.parse(try FileSystem.readFile(base + ".event"), file: base + ".event", into: description)
        let xAxis = try #require(events.absoluteAxes.first { $0.code == AbsCode.mtPositionX })
        let yAxis = try #require(events.absoluteAxes.first { $0.code == AbsCode.mtPositionY })
        var tracker = TouchTracker()
        // A ring centred on the panel: whatever was drawn turns it by a finite amount.
        var knob = TouchKnob(region: .ring(
            centerX: Double(xAxis.minimum + xAxis.maximum) / 2, centerY: Double(yAxis.minimum + yAxis.maximum) / 2,
            minimumRadius: 0, detentsPerTurn: 24))
        var total = 0.0, lifts = 0
        for event in events.events {
            guard let frame = tracker.feed(event) else { continue }
            switch knob.feed(frame) {
            case .move(let detents, _)?: total += detents; #expect(abs(detents) < 12)  // never a jump of half a turn
            case .lift?: lifts += 1
            case nil: break
            }
        }
        #expect(tracker.touches == recording.touches)
        #expect(lifts <= tracker.touches)
        #expect(total.isFinite)
    }

    @Test("the real touch recordings replay through the evdev backend's interpreter: classified as touch, motion, and one lift per touch at most",
          .enabled(if: FixturePaths.touchPresent, FixturePaths.absent), arguments: recordings)
    func realRecordingsThroughBackend(_ recording: Recording) throws {
        let base = FixturePaths.shared + "/touch-evemu/" + recording.name
        let description = try EvemuRecording.parse(try FileSystem.readFile(base + ".prop"), file: base + ".prop")
        let events = try EvemuRecording.parse(try FileSystem.readFile(base + ".event"), file: base + ".event", into: description)
        let replay = DeviceReplay.inputs(from: events, profiles: [])
        #expect(replay.classification.kind == .touch)
        let lifts = replay.inputs.filter { $0.action == .lift }.count
        #expect(lifts <= recording.touches)  // bcm5974's recording ends with the finger down
        #expect(replay.inputs.contains { if case .touch = $0.action { return true } else { return false } })
        for input in replay.inputs {
            if case .touch(let detents) = input.action { #expect(abs(detents) < 12) }
        }
        // Times never go backwards.
        #expect(zip(replay.inputs, replay.inputs.dropFirst()).allSatisfy { $0.timeNanoseconds <= $1.timeNanoseconds })
    }

    /// Events of a finger drawing `turns` circles of radius 300 about (500, 500), 72 samples a turn.
    static func circle(turns: Double, protocolB: Bool, clockwise: Bool = false) -> [InputEvent] {
        var events: [InputEvent] = []
        let samples = Int(72 * abs(turns))
        for i in 0...samples {
            let t = Int64(i) * 8_000_000
            let angle = 2 * .pi * Double(i) / 72 * (clockwise ? -1 : 1) + 3.0  // start near ±π to cross the seam
            let x = Int32((500 + 300 * Elementary.cos(angle)).rounded()), y = Int32((500 + 300 * Elementary.sin(angle)).rounded())
            func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(timeNanoseconds: t, type: EventType.abs, code: code, value: value) }
            if protocolB {
                if i == 0 { events += [abs(AbsCode.mtSlot, 0), abs(AbsCode.mtTrackingID, 7)] }
                events += [abs(AbsCode.mtPositionX, x), abs(AbsCode.mtPositionY, y)]
            } else {
                events += [abs(AbsCode.mtPositionX, x), abs(AbsCode.mtPositionY, y),
                           InputEvent(timeNanoseconds: t, type: EventType.syn, code: SynCode.mtReport, value: 0)]
            }
            events.append(.synReport(at: t))
        }
        let end = Int64(samples + 1) * 8_000_000
        if protocolB { events.append(InputEvent(timeNanoseconds: end, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1)) }
        events.append(.synReport(at: end))
        return events
    }

    @Test("a circle drawn on a ring turns the knob by the ring's detents per turn, across the ±π seam, in A and B",
          arguments: [true, false])
    func ring(_ protocolB: Bool) {
        for (turns, clockwise) in [(2.0, false), (1.5, true)] {
            var tracker = TouchTracker()
            var knob = TouchKnob(region: .ring(centerX: 500, centerY: 500, minimumRadius: 100, detentsPerTurn: 39))
            var total = 0.0, lifted = false
            for event in Self.circle(turns: turns, protocolB: protocolB, clockwise: clockwise) {
                guard let frame = tracker.feed(event) else { continue }
                switch knob.feed(frame) {
                case .move(let detents, _)?: total += detents
                case .lift?: lifted = true
                case nil: break
                }
            }
            #expect(abs(total - 39 * turns * (clockwise ? -1 : 1)) < 0.3, "protocol \(protocolB ? "B" : "A"): \(total)")
            #expect(lifted && tracker.touches == 1)
        }
    }

    @Test("a strip maps its length to its detents; single-touch ABS_X with BTN_TOUCH works too")
    func strip() {
        var tracker = TouchTracker()
        var knob = TouchKnob(region: .strip(alongX: true, from: 0, to: 4096, detents: 20))
        var total = 0.0
        var events: [InputEvent] = [InputEvent(timeNanoseconds: 0, type: EventType.key, code: KeyCode.btnTouch, value: 1)]
        for i in 0...10 {
            let t = Int64(i) * 10_000_000
            events += [InputEvent(timeNanoseconds: t, type: EventType.abs, code: AbsCode.x, value: Int32(1000 + i * 204)),
                       InputEvent(timeNanoseconds: t, type: EventType.abs, code: AbsCode.y, value: 100), .synReport(at: t)]
        }
        events += [InputEvent(timeNanoseconds: 200_000_000, type: EventType.key, code: KeyCode.btnTouch, value: 0), .synReport(at: 200_000_000)]
        var lifted = false
        for event in events {
            guard let frame = tracker.feed(event) else { continue }
            switch knob.feed(frame) {
            case .move(let detents, _)?: total += detents
            case .lift?: lifted = true
            case nil: break
            }
        }
        #expect(abs(total - 2040.0 / 4096 * 20) < 1e-9)
        #expect(lifted)
    }
}
