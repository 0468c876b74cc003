import FlywheelCore
import Glibc
import Testing

/// A device's own options from the configuration, through a real flywheeld playing a scenario and
/// through `flywheel replay` with the same configuration: the same messages, the options applied.
@Suite("flywheeld: a device's own options", .serialized)
struct DeviceOptionsDaemonTests {
    static let configuration = """
        { devices: [{ profile: "ec11", name: "reversed knob", invert: true, inertia: false, acceleration: "off",
                      buttons: { "256": { press: "none", long: "mode", double: "none" } } }] }
        """

    /// A flick, a long press and a double press on an ec11.
    static let scenario = """
        device ec11
        seed 3
        turn +10 at 40/s
        hold 1s
        press
        hold 800ms
        release
        hold 500ms
        press
        hold 80ms
        release
        hold 120ms
        press
        hold 80ms
        release
        hold 1s

        """

    @Test("invert, inertia and acceleration off and a long press from devices[]: replay and socket agree, and the flick ends exactly 10 detents down")
    func replayAndSocket() throws {
        let config = DaemonConfigurationTests.write(Self.configuration)
        let directory = String(config[..<config.lastIndex(of: "/")!])
        let scenario = directory + "/options.sim"
        RepositoryPaths.write(Self.scenario, to: scenario)
        let replay = ToolRun.run(["replay", scenario, "--config", config, "--hardware", RepositoryPaths.path("hardware")])
        #expect(replay.status == 0, "\(replay.err)")
        let expected = replay.out.split(separator: "\n").map(String.init)
        let tempo = expected.filter { $0.contains(#""class":"tempo""#) }
        #expect(tempo.last?.contains(#""bpm":110"#) == true, "\(tempo.last ?? "no tempo")")
        #expect(tempo.filter { $0.contains(#""phase":"moved""#) }.count == 10)
        #expect(expected.first?.contains(#""name":"reversed knob""#) == true)
        let actions = expected.filter { $0.contains(#""class":"button""#) && !$0.contains(#""press""#) && !$0.contains(#""release""#) }
        #expect(actions.count == 2 && actions[0].contains("long-press") && actions[1].contains("double-press"), "\(actions)")
        #expect(expected.filter { $0.contains(#""class":"mode""#) }.count == 1)

        let daemon = try DaemonProcess(["--config", config, "--simulate", scenario, "--hold-until-clients", "2", "--frames", "0"])
        defer { _ = daemon.stop() }
        let watcher = try TestClient(daemon.socketPath)
        #expect(watcher.rawLine()?.contains(#""class":"hello""#) == true)
        watcher.send(#"{"cmd":"watch"}"#)
        #expect(watcher.rawLine()?.contains(#""class":"watch""#) == true)
        let starter = try TestClient(daemon.socketPath)
        var received: [String] = []
        while received.count < expected.count, let line = watcher.rawLine() { received.append(line) }
        _ = starter
        #expect(ReplayMatchesSocketTests.normalisedStream(expected) == ReplayMatchesSocketTests.normalisedStream(received))
    }
}
