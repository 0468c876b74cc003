@testable import FlywheelCLI
import Testing

/// `flywheel watch`'s readable lines: times from the first event, buttons by name, each control in
/// its own units, frames with offset and velocity, device and reply lines as sentences, and
/// `--classes` checked before connecting.
@Suite("flywheel watch for people")
struct WatchForPeopleTests {
    static func lines(_ wire: [String], clock: EventText.Clock = .relative) -> [String] {
        var text = EventText(clock: clock, timeOfDay: { seconds in "tod(\(seconds))" })
        return wire.map { text.line($0) }
    }

    @Test("times count from the first event, not CLOCK_MONOTONIC's 4237.552")
    func relativeTimes() {
        let shown = Self.lines([
            #"{"class":"hello","seq":1,"protocol":1,"version":"0.1.0","devices":[],"time":4237.0}"#,
            #"{"class":"tempo","seq":2,"bpm":121,"value":101,"phase":"moved","time":4237.552}"#,
            #"{"class":"tempo","seq":3,"bpm":122,"value":102,"phase":"moved","time":4238.802}"#,
        ])
        #expect(shown[1] == "       0.000  tempo   121 BPM  moved")
        #expect(shown[2] == "       1.250  tempo   122 BPM  moved")
        #expect(!shown.joined().contains("4237"))
    }

    @Test("--wall-clock shows the time of day")
    func wallClock() {
        let shown = Self.lines([#"{"class":"mode","seq":2,"mode":"scrub","time":12.5}"#], clock: .wall)
        #expect(shown[0].hasPrefix("tod(12.5)  mode "), "\(shown)")
    }

    @Test("buttons by their evdev names; unnamed codes as numbers")
    func buttonNames() {
        let shown = Self.lines([
            #"{"class":"button","seq":2,"code":256,"action":"tap","time":1.0}"#,
            #"{"class":"button","seq":3,"code":300,"action":"press","time":1.0}"#,
        ])
        #expect(shown[0].hasSuffix("button  BTN_0 tap"), "\(shown[0])")
        #expect(shown[1].hasSuffix("button  key 300 press"), "\(shown[1])")
    }

    @Test("device, hello and reply lines are sentences, not raw JSON")
    func sentences() {
        let shown = Self.lines([
            #"{"class":"hello","seq":1,"protocol":1,"version":"0.1.0","controls":["tempo"],"devices":[{"name":"EC11","kind":"simulated","path":"hardware/scenarios/demo.sim"}],"time":1.0}"#,
            #"{"class":"device","seq":2,"action":"added","name":"Griffin PowerMate","path":"/dev/input/event3","kind":"jog-dial","time":2.0}"#,
            #"{"class":"state","seq":3,"tempo":{"bpm":120,"value":100},"scrub":{"position":12.5,"duration":214},"volume":{"volume":30},"mode":{"active":"tempo"},"time":3.0}"#,
            #"{"class":"pong","seq":4,"time":4.0}"#,
            #"{"class":"tap","seq":5,"bpm":164.66,"time":5.0}"#,
        ])
        #expect(shown[0] == "connected to flywheeld 0.1.0 (protocol 1); devices: EC11 (simulated, hardware/scenarios/demo.sim)")
        #expect(shown[1].hasSuffix("device  added: Griffin PowerMate (jog-dial, /dev/input/event3)"), "\(shown[1])")
        #expect(shown[2].hasSuffix("state   tempo 120 BPM, scrub 0:12.5 / 3:34.0, volume 30 %, mode tempo"), "\(shown[2])")
        #expect(shown[3].hasSuffix("pong    flywheeld is there"))
        #expect(shown[4].hasSuffix("tap     tap tempo 164.7 BPM"), "\(shown[4])")
        #expect(!shown.joined().contains("{"))
    }

    @Test("a scrub with no song length says so, and the first time what sets one (it showed 0:00.0 / 0:00.0 with no word why)")
    func noLength() {
        let shown = Self.lines([
            #"{"class":"scrub","seq":2,"position":0,"duration":0,"phase":"began","time":1.0}"#,
            #"{"class":"scrub","seq":3,"position":0,"duration":0,"phase":"committed","time":2.0}"#,
            #"{"class":"state","seq":4,"tempo":{"bpm":120},"scrub":{"position":0,"duration":0},"time":3.0}"#,
            #"{"class":"scrub","seq":5,"position":12.5,"duration":214,"phase":"moved","time":4.0}"#,
        ])
        #expect(shown[0].hasSuffix("scrub   0:00.0 / no length  began (no song length: `flywheel mpd` or flywheeld --scrub-duration S sets it)"), "\(shown[0])")
        #expect(shown[1].hasSuffix("scrub   0:00.0 / no length  committed"), "\(shown[1])")
        #expect(shown[2].hasSuffix("state   tempo 120 BPM, scrub 0:00.0 / no length"), "\(shown[2])")
        #expect(shown[3].hasSuffix("scrub   0:12.5 / 3:34.0  moved"), "\(shown[3])")
    }

    @Test("frames in their control's units, with offset and velocity")
    func frames() {
        let shown = Self.lines([
            #"{"class":"frame","seq":38,"control":"scrub","value":101.221858,"offset":6.731552,"velocity":24.130071,"time":1.0}"#,
            #"{"class":"frame","seq":39,"control":"tempo","value":150,"offset":-0.25,"velocity":-3.5,"time":1.1}"#,
        ])
        #expect(shown[0].hasSuffix("frame   scrub 1:41.2  offset +6.73 detent  velocity +24.13 detents/s"), "\(shown[0])")
        #expect(shown[1].hasSuffix("frame   tempo 150.0 BPM  offset -0.25 detent  velocity -3.50 detents/s"), "\(shown[1])")
    }

    @Test("--classes: spaces trimmed, frame asks for frames, an unknown class is refused before connecting (status 2)")
    func classes() throws {
        #expect(try WatchClasses(" tempo, scrub ").classes == [.tempo, .scrub])
        #expect(try WatchClasses("frame").wantsFrames)
        let bogus = ToolRun.run(["watch", "--classes", "tempo,bogus", "--socket", "/nonexistent/flywheel.sock"])
        #expect(bogus.status == 2)
        #expect(bogus.err == "flywheel: --classes takes names from tempo, volume, scrub, mode, navigate, button, device, gap, hint, frame, not 'bogus'.\n")
        let onlyReplies = ToolRun.run(["watch", "--classes", "pong", "--socket", "/nonexistent/flywheel.sock"])
        #expect(onlyReplies.status == 2)
    }
}
