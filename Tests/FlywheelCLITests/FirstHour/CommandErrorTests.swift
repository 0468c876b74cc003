@testable import FlywheelCLI
import FlywheelCore
import FlywheelDaemon
import Glibc
import Testing

/// The errors of the first hour, each saying how to fix what failed.
@Suite("Errors that say how to fix them")
struct CommandErrorTests {
    @Test("flywheel mpd --pause-button BTN_0 is taken, as --button BTN_0=… is")
    func pauseButtonByName() throws {
        var args = Arguments(["--pause-button", "BTN_0", "--button", "BTN_1=next"], command: "mpd")
        let buttons = try MPDCommand.buttons(&args)
        #expect(buttons == [256: .playPause, 257: .next])
        var numbered = Arguments(["--pause-button", "256"], command: "mpd")
        #expect(try MPDCommand.buttons(&numbered) == [256: .playPause])
        let bad = ToolRun.run(["mpd", "--pause-button", "KEY_A"])
        #expect(bad.status == 2 && bad.err == "flywheel: --pause-button takes a button as BTN_0…BTN_9 or a key code such as 256, not 'KEY_A'.\n")
    }

    @Test("a reconnect message reads '…(ENOENT); retrying in 0.25 s.', not '(ENOENT).; retrying'")
    func retryingSentence() {
        var backoff = ReconnectBackoff()
        let reason = "connect on /run/flywheel/flywheel.sock failed: No such file or directory (ENOENT)."
        let sentence = "\(ReconnectBackoff.clause(reason)); \(backoff.failed(at: 0))"
        #expect(sentence == "connect on /run/flywheel/flywheel.sock failed: No such file or directory (ENOENT); retrying in 0.25 s.")
        #expect(ReconnectBackoff.clause("flywheeld closed the connection") == "flywheeld closed the connection")
    }

    @Test("flywheel record --gpio on a chip that is not there points to flywheel devices")
    func recordPointsToDevices() {
        let missing = ToolRun.run(["record", "--gpio", "flywheel-no-such-chip:17,27"])
        #expect(missing.status == 1)
        #expect(missing.err.hasPrefix("flywheel: cannot open the GPIO chip flywheel-no-such-chip") && missing.err.hasSuffix(" `flywheel devices` lists the GPIO chips there are and their lines.\n"), "\(missing.err)")
    }

    @Test("every flywheel error starts with 'flywheel: ', as flywheeld's start with 'flywheeld: '")
    func prefix() {
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["decode", "/nonexistent.edges"])
        #expect(run.status == 1 && run.err.hasPrefix("flywheel: "))
        #expect(ToolRun.run(["frobnicate"]).err.hasPrefix("flywheel: there is no command 'frobnicate'"))
    }

    @Test("devices --json prints [] when it finds nothing; a missing folder is said")
    func devicesFindingNothing() throws {
        let directory = DaemonSessionTests.temporaryDirectory()
        defer { rmdir(directory) }
        let empty = ToolRun.run(["devices", "--input-dir", directory, "--gpio-dir", directory, "--json"])
        #expect(empty.status == 0)
        #expect(empty.out == "[]\n")
        let missing = ToolRun.run(["devices", "--input-dir", directory + "/missing", "--gpio-dir", directory + "/missing"])
        #expect(missing.out.contains("No input devices: cannot read the folder \(directory)/missing: "), "\(missing.out)")
        #expect(missing.out.contains("ENOENT"), "\(missing.out)")
        #expect(missing.out.contains("No GPIO chips: the folder \(directory)/missing does not exist."), "\(missing.out)")
        // No /dev/input at all (a container): still [] for a script, the reason on standard error.
        let none = ToolRun.run(["devices", "--input-dir", directory + "/missing", "--gpio-dir", directory + "/missing", "--json"])
        #expect(none.status == 0 && none.out == "[]\n", "\(none.out)")
        #expect(none.err == "flywheel: no input devices: cannot read the folder \(directory)/missing: No such file or directory (ENOENT).\n", "\(none.err)")
    }

    @Test("plot --flick 1000 says the speed is capped at 60 detents/s instead of capping it silently")
    func plotSaysTheCap() {
        let capped = ToolRun.run(["plot", "--flick", "1000", "--format", "csv"])
        #expect(capped.status == 0)
        #expect(capped.err == "flywheel plot: --flick 1000.0 is above the speed cap, 60 detents/s (feel.max_speed); the plot flicks at the cap.\n")
        #expect(ToolRun.run(["plot", "--flick", "30", "--format", "csv"]).err.isEmpty)
    }
}
