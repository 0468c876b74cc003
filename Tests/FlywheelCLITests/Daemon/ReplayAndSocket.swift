import FlywheelCore
import Testing

/// One scenario through `flywheel replay` and through a real flywheeld's socket (`--simulate`),
/// each with its own defaults: the lines of both, to compare.
enum ReplayAndSocket {
    /// The replay's lines and a watcher's lines from a flywheeld playing `path` (`replayArguments`
    /// and `daemonArguments` added to each), as many as the replay has.
    static func run(_ path: String, replayArguments: [String] = [], daemonArguments: [String] = ["--frames", "0"]) throws -> (replay: [String], socket: [String]) {
        let replay = ToolRun.run(["replay", path, "--hardware", RepositoryPaths.path("hardware")] + replayArguments)
        #expect(replay.status == 0, "\(replay.err)")
        let expected = replay.out.split(separator: "\n").map(String.init)
        let daemon = try DaemonProcess(["--simulate", path, "--hold-until-clients", "2"] + daemonArguments)
        defer { _ = daemon.stop() }
        let watcher = try TestClient(daemon.socketPath)
        #expect(watcher.rawLine()?.contains(#""class":"hello""#) == true)
        watcher.send(#"{"cmd":"watch"}"#)
        #expect(watcher.rawLine()?.contains(#""class":"watch""#) == true)
        let starter = try TestClient(daemon.socketPath)  // the second client starts the playback
        var received: [String] = []
        while received.count < expected.count, let line = watcher.rawLine() { received.append(line) }
        _ = starter
        return (expected, received)
    }
}
