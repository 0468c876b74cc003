import FlywheelCore
import FlywheelIO
import Testing
@testable import FlywheelFormats

@Suite("evemu reader")
struct EvemuTests {
    static let powermate = """
        # EVEMU 1.3
        # a hand-written PowerMate recording
        N: Griffin PowerMate
        I: 0003 077d 0410 0400
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 02 80 00 00 00 00 00 00 00
        E: 0.000100 0002 0007 7	# EV_REL / REL_DIAL 7
        E: 0.000100 0000 0000 0000
        E: 0.008100 0002 0007 -3
        E: 0.008100 0000 0000 0

        """

    @Test("parses description and events, with and without trailing comments")
    func parse() throws {
        let recording = try EvemuRecording.parse(Array(Self.powermate.utf8), file: "p.evemu")
        #expect(recording.name == "Griffin PowerMate")
        #expect(recording.vendor == 0x077d && recording.product == 0x0410)
        #expect(recording.has(type: EventType.rel, code: RelCode.dial))
        #expect(!recording.has(type: EventType.rel, code: RelCode.wheel))
        #expect(recording.events.count == 4)
        #expect(recording.events[2] == InputEvent(timeNanoseconds: 8_100_000, type: 2, code: 7, value: -3))
    }

    @Test("text() round-trips")
    func roundTrip() throws {
        let recording = try EvemuRecording.parse(Array(Self.powermate.utf8), file: "p.evemu")
        #expect(try EvemuRecording.parse(Array(recording.text().utf8), file: "q.evemu") == recording)
    }

    @Test("events alone, without a header, are a recording")
    func bare() throws {
        let recording = try EvemuRecording.parse(Array("E: 1.000001 0002 0000 1\n".utf8), file: "e")
        #expect(recording.name == nil)
        #expect(recording.events == [InputEvent(timeNanoseconds: 1_000_001_000, type: 2, code: 0, value: 1)])
    }

    static let malformed: [(String, Int, String)] = [
        ("E: 1.0 0002\n", 1, "expected 'E: <sec>.<usec> <type hex> <code hex> <value>' but found 'E: 1.0 0002'"),
        ("E: one 0002 0000 1\n", 1, "expected a time as <seconds>.<microseconds> but found 'one'"),
        ("E: 1.0 00g2 0000 1\n", 1, "expected an event type in hex but found '00g2'"),
        ("E: 1.0 0002 0000 1x\n", 1, "expected a decimal event value but found '1x'"),
        ("E: 2.0 0002 0000 1\nE: 1.0 0002 0000 1\n", 2, "expected event times in order but '1.0' is earlier than the event before"),
        ("I: 0003 077d\n", 1, "expected 'I: <bus> <vendor> <product> <version>' in hex but found 'I: 0003 077d'"),
        ("A: 00 0 10\n", 1, "expected 'A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]' but found 'A: 00 0 10'"),
        ("X: 1\n", 1, "expected an 'E:', 'N:', 'I:', 'P:', 'B:', 'A:' or '#' line but found 'X: 1'"),
    ]

    @Test("malformed lines name the file, line and what was expected", arguments: 0..<malformed.count)
    func errors(_ index: Int) {
        let (text, line, problem) = Self.malformed[index]
        #expect(throws: FileLineError(file: "bad.evemu", line: line, problem: problem)) {
            try EvemuRecording.parse(Array(text.utf8), file: "bad.evemu")
        }
    }

    struct Touch: Sendable, CustomTestStringConvertible {
        let name: String, events: Int, slots: Bool
        var testDescription: String { name }
    }

    // Event counts from `grep -c '^E:'` on each file; protocol B devices have ABS_MT_SLOT in
    // their description (wetab), protocol A ones do not (ntrig, bcm5974).
    static let touch: [Touch] = [
        .init(name: "wetab", events: 170, slots: true),
        .init(name: "ntrig-dell-xt2", events: 146, slots: false),
        .init(name: "bcm5974", events: 12_893, slots: false),
    ]

    @Test("the real touch recordings in ../shared replay without error",
          .enabled(if: FixturePaths.touchPresent, FixturePaths.absent), arguments: touch)
    func realTouch(_ touch: Touch) throws {
        let base = FixturePaths.shared + "/touch-evemu/" + touch.name
        let description = try EvemuRecording.parse(try FileSystem.readFile(base + ".prop"), file: base + ".prop")
        let recording = try EvemuRecording.parse(try FileSystem.readFile(base + ".event"), file: base + ".event", into: description)
        #expect(recording.events.count == touch.events)
        #expect(recording.has(type: EventType.abs, code: AbsCode.mtPositionX))
        #expect(recording.has(type: EventType.abs, code: AbsCode.mtSlot) == touch.slots)
        #expect(recording.events.last?.type == EventType.syn)
    }

    @Test("a capability line longer than 8192 bytes is an error naming the line and the limit, not a crash")
    func longCapabilityLine() {
        let line = "B: 01" + String(repeating: " ff", count: 8200)
        let text = "N: hostile\nI: 0003 077d 0410 0400\n" + line + "\nE: 0.000100 0002 0007 7\n"
        // Swift 6.0's #expect(throws:) returns nothing: the error is caught here to look into it.
        let error: FileLineError? = {
            do { _ = try EvemuRecording.parse(Array(text.utf8), file: "h.evemu"); return nil } catch let error as FileLineError { return error } catch { return nil }
        }()
        #expect(error != nil, "expected a FileLineError")
        #expect(error?.line == 3)
        #expect(error?.problem.contains("\(EvemuRecording.maximumCapabilityBytes)") == true)
        // At the limit it is read, and every code it sets is a valid evdev code.
        let full = "N: full\nB: 01" + String(repeating: " ff", count: EvemuRecording.maximumCapabilityBytes) + "\n"
        let recording = try? EvemuRecording.parse(Array(full.utf8), file: "f.evemu")
        #expect(recording?.deviceDescription.codes[EventType.key]?.max() == 0x2ff)
    }
}
