import FlywheelCore
@testable import FlywheelDaemon
import Glibc
import Testing

/// A `--simulate` scenario that does not loop, ending with a repeating button held (issue 45): its
/// device is removed at the end, so the repeat stops, the loop rests, and a client connecting later
/// is told of no device.
@Suite("flywheeld at the end of a played scenario, in process", .serialized)
@MainActor
struct PlaybackEndTests {
    @Test("navigate+ held to the scenario's end: `removed` at the end, then nothing repeats, nothing is armed, hello lists no device")
    func heldToTheEnd() throws {
        var template = Array("/tmp/flywheel-playback-end-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            unlink(directory + "/held.sim")
            unlink(directory + "/flywheel.json5")
            rmdir(directory)
        }
        try StripDaemonTests.write("device shuttlexpress\nbounce off\nhold 100ms\npress BTN_4\nhold 2s\n", to: directory + "/held.sim")
        try StripDaemonTests.write("{ controls: { buttons: { BTN_4: 'navigate+' } } }", to: directory + "/flywheel.json5")
        let daemon = try InProcessDaemon([
            "--config", directory + "/flywheel.json5", "--simulate", directory + "/held.sim", "--hold-until-clients", "1", "--frames", "0",
        ])
        defer { daemon.stop() }
        let client = try daemon.connect()
        _ = try client.next()  // hello
        let removed = try #require(try client.next(where: { $0["class"]?.stringValue == "device" && $0["action"]?.stringValue == "removed" }))
        let end = try #require(removed["time"]?.doubleValue)
        while try daemon.advanceToDeadline() {}
        #expect(daemon.daemon.loop.nextDeadline == nil, "at rest after the end: nothing repeats")
        let later = try daemon.connect()
        let hello = try #require(try later.next())
        #expect(hello["devices"] == .array([]), "\(hello.encoded())")
        try client.send("{\"cmd\":\"ping\"}")
        let steps = try #require(try client.next(where: { $0["class"]?.stringValue == "pong" || $0["class"]?.stringValue == "navigate" }))
        #expect(steps["class"]?.stringValue == "pong", "a step after the end at \(end): \(steps.encoded())")
    }
}
