import FlywheelCore
import Glibc
import Testing

/// A real `mpd` from Debian's packages (null output, a generated 3-minute tone), flywheeld on a
/// simulated knob that scrubs, and `flywheel mpd` between them, all as child processes.
@Suite("flywheel mpd against a real MPD", .serialized)
struct MPDBridgeTests {
    static let mpdPath = "/usr/bin/mpd"
    static let soxPath = "/usr/bin/sox"
    static var available: Bool { access(mpdPath, X_OK) == 0 && access(soxPath, X_OK) == 0 }

    /// A background child process (killed and reaped by `stop`): the faulty-peer tests' ``Child``.
    typealias Background = Child

    /// MPD's protocol, for the test's own checks.
    final class MPDProbe {
        let client: TestClient
        init(_ path: String) throws {
            client = try TestClient(path, timeoutSeconds: 10)
            _ = client.rawLine()
        }
        func command(_ text: String) -> [String: String] {
            client.send(text)
            var out: [String: String] = [:]
            while let line = client.rawLine(), line != "OK", !line.hasPrefix("ACK") {
                if let colon = line.firstIndex(of: ":") { out[String(line[..<colon])] = String(line[line.index(colon, offsetBy: 2)...]) }
            }
            return out
        }
        var elapsed: Double { Double(command("status")["elapsed"] ?? "") ?? -1 }
    }

    /// Waits (bounded) until `condition` holds, checking every 50 ms: waiting on a condition, not a fixed sleep.
    static func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = MonotonicClockForTests.now() + seconds
        while MonotonicClockForTests.now() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// flywheeld on `scenario` (in this folder) under `configuration`, a watching client (first,
    /// so it sees everything the bridge causes), then `flywheel mpd` to `mpd` with
    /// `bridgeArguments`, its standard error in DIRECTORY/bridge.err. Playback starts with the bridge.
    static func startBridge(
        _ directory: String, configuration: String, scenario: String, mpd: String, bridgeArguments: [String] = []
    ) throws -> (DaemonProcess, TestClient, Background) {
        let config = directory + "/flywheel.json5"
        RepositoryPaths.write(configuration, to: config)
        let daemon = try DaemonProcess([
            "--config", config, "--simulate", RepositoryPaths.path("Tests/FlywheelCLITests/MPD/" + scenario),
            "--hold-until-clients", "2", "--frames", "0",
        ])
        let watcher = try TestClient(daemon.socketPath)
        let bridge = try Background(
            [ChildProcess.product("flywheel"), "mpd", "--socket", daemon.socketPath, "--mpd", mpd] + bridgeArguments,
            stderrPath: directory + "/bridge.err")
        return (daemon, watcher, bridge)
    }

    static func startMPD(_ directory: String) throws -> Background {
        let mpd = try Background([mpdPath, "--no-daemon", directory + "/mpd.conf"])
        #expect(eventually { access(directory + "/mpd.sock", F_OK) == 0 && (try? MPDProbe(directory + "/mpd.sock")) != nil })
        return mpd
    }

    /// A directory with a 3-minute tone and an MPD configuration (null output, with `mixer` as
    /// its mixer_type when given).
    static func prepareMPD(mixer: String?) -> String {
        var template = Array("/tmp/flywheel-mpd-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        mkdir(directory + "/music", 0o755)
        let sox = ChildProcess.run(Self.soxPath, ["-n", "-r", "22050", "-c", "1", directory + "/music/tone.wav", "synth", "180", "sine", "440"])
        #expect(sox.status == 0, "\(sox.err)")
        RepositoryPaths.write("""
            music_directory "\(directory)/music"
            db_file "\(directory)/db"
            log_file "\(directory)/log"
            state_file "\(directory)/state"
            bind_to_address "\(directory)/mpd.sock"
            audio_output {
                type "null"
                name "null"
                \(mixer.map { "mixer_type \"\($0)\"" } ?? "")
            }

            """, to: directory + "/mpd.conf")
        return directory
    }

    @Test("commits seek MPD (a single click too), the duration reaches flywheeld, and an MPD restart is survived",
          .enabled(if: available, "mpd and sox are not installed (.ci/run installs them)"))
    func bridge() throws {
        let directory = Self.prepareMPD(mixer: nil)
        var mpd = try Self.startMPD(directory)
        defer { mpd.stop() }
        let probe = try MPDProbe(directory + "/mpd.sock")
        _ = probe.command("update")
        #expect(Self.eventually { probe.command("status")["updating_db"] == nil })
        _ = probe.command("add tone.wav")
        _ = probe.command("play")
        _ = probe.command("seekcur 30")
        #expect(Self.eventually { probe.elapsed >= 29.5 })
        _ = probe.command("pause 1")
        let start = probe.elapsed
        #expect(abs(start - 30) < 1.5)

        let (daemon, watcher, bridge) = try Self.startBridge(
            directory, configuration: "{ devices: [ { profile: 'ec11', control: 'scrub' } ] }", scenario: "mpd-scrubs.sim", mpd: directory + "/mpd.sock")
        defer { _ = daemon.stop() }
        defer { bridge.stop() }

        // The click seeks one detent (0.9 s of 180 s): a detented knob's click is deliberate.
        let click = try #require(watcher.next(where: { $0["phase"]?.stringValue == "committed" }))
        #expect(abs((click["origin"]?.doubleValue ?? 0) - start) < 1, "origin \(click.encoded()) vs MPD at \(start)")
        let clickTarget = try #require(click["position"]?.doubleValue)
        #expect(abs(clickTarget - ((click["origin"]?.doubleValue ?? 0) + 0.9)) < 1e-6)
        #expect(Self.eventually { abs(probe.elapsed - clickTarget) < 0.3 }, "MPD at \(probe.elapsed), committed \(clickTarget)")
        // The turn: one commit where the knob rests, from where the click left the player.
        let first = try #require(watcher.next(where: { $0["phase"]?.stringValue == "committed" }))
        #expect(abs((first["origin"]?.doubleValue ?? 0) - clickTarget) < 1e-6, "origin \(first.encoded()) vs \(clickTarget)")
        #expect(first["duration"] == .int(180) || first["duration"] == .double(180))
        let target = try #require(first["position"]?.doubleValue)
        #expect(target > clickTarget + 5)
        #expect(Self.eventually { abs(probe.elapsed - target) < 1 }, "MPD at \(probe.elapsed), committed \(target)")

        // The duration is visible in flywheeld's state.
        watcher.send("{\"cmd\":\"get\"}")
        #expect(watcher.next(where: { $0["class"]?.stringValue == "state" })?["scrub"]?["duration"]?.doubleValue == 180)

        // MPD restarts during the pause; the bridge reconnects and the next commit seeks.
        mpd.stop()
        mpd = try Self.startMPD(directory)
        let reborn = try MPDProbe(directory + "/mpd.sock")
        #expect(Self.eventually { reborn.command("status")["songid"] != nil })
        let second = try #require(watcher.next(where: { $0["phase"]?.stringValue == "committed" }))
        let secondTarget = try #require(second["position"]?.doubleValue)
        #expect(secondTarget < target)
        #expect(Self.eventually { abs(reborn.elapsed - secondTarget) < 1 }, "MPD at \(reborn.elapsed), committed \(secondTarget)")
        #expect(bridge.stop() == 0)  // SIGTERM: a clean exit
    }
}

enum MonotonicClockForTests {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
