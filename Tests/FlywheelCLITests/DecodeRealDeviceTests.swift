import Testing

/// `flywheel decode` on recordings other people made of real devices (../shared/fixtures/real-devices):
/// the plain per-detent decode agrees with what the live backend makes of the same events.
@Suite("flywheel decode: real device recordings")
struct DecodeRealDeviceTests {
    static let directory = RepositoryPaths.path("../shared/fixtures/real-devices")
    static var present: Bool { RepositoryPaths.read(directory + "/README.md") != nil }

    /// The five button reports before the jog moves carry no REL_DIAL: the counter is 0 (the kernel
    /// drops a relative 0), so the jog's 255, 254, 255, 1 are −1, −1, +1, +2 — the first jog counts.
    @Test("a real ShuttleXpress: the first jog is counted from 0, not taken as a baseline",
          .enabled(if: present, SharedFixtures.absent))
    func shuttleXpressFirstJog() {
        let path = Self.directory + "/shuttlexpress-omakoto.evemu"
        let lines = ToolRun.run(["decode", path]).out.split(separator: "\n")
        #expect(lines.map { $0.contains(#""detent":-1"#) ? -1 : 1 } == [-1, -1, 1, 1, 1])
        #expect(lines.first?.hasPrefix(#"{"t":1603940643.232741000,"#) == true)
        let summary = ToolRun.run(["decode", path, "--summary"])
        #expect(summary.out.contains(#""detents":1,"#), "\(summary.out)")
    }
}

/// `flywheel replay` of a real touch panel recording whose finger rests (../shared/fixtures).
@Suite("flywheel replay: a resting finger")
struct RestingFingerReplayTests {
    /// A 3M MicroTouch panel: the finger rests still for most of the recording. The replay ends (a
    /// watchdog of 120 s says if it does not; it takes well under a second) and its frames stop.
    @Test("flywheel replay touch-3m.event --frames 60 ends", .enabled(if: DecodeRealDeviceTests.present, SharedFixtures.absent))
    func ends() throws {
        let path = DecodeRealDeviceTests.directory + "/touch-3m.event"
        let run = ChildProcess.run(
            "/usr/bin/timeout", ["-s", "KILL", "120", ChildProcess.product("flywheel"), "replay", path, "--frames", "60", "--hardware", RepositoryPaths.path("hardware")])
        #expect(run.status == 0, "status \(run.status) (137: killed by the watchdog, it did not end): \(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.first?.contains(#""action":"added""#) == true)
        #expect(lines.count < 5000, "\(lines.count) lines: frames kept coming")
    }
}
