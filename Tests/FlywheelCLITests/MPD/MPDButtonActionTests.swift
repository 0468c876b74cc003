import FlywheelCore
import Glibc
import Testing

/// The MPD bridge's toggles (issue 35, the navigator's buttons) against a real MPD: a button tapped
/// twice turns mute, shuffle (`random`) or `repeat` on, then off.
@Suite("flywheel mpd: mute, shuffle and repeat against a real MPD", .serialized)
struct MPDButtonActionTests {
    typealias Harness = MPDBridgeTests

    /// A real MPD with a software mixer and `songs` copies of the tone in its playlist, and a probe.
    static func player(songs: Int) throws -> (String, Harness.Background, Harness.MPDProbe) {
        let directory = Harness.prepareMPD(mixer: "software")
        let mpd = try Harness.startMPD(directory)
        let probe = try Harness.MPDProbe(directory + "/mpd.sock")
        _ = probe.command("update")
        #expect(Harness.eventually { probe.command("status")["updating_db"] == nil })
        for _ in 0..<songs { _ = probe.command("add tone.wav") }
        return (directory, mpd, probe)
    }

    @Test("two taps: on, then off, as MPD's own status says", .enabled(if: Harness.available, "mpd and sox are not installed (.ci/run installs them)"),
          arguments: ["mute", "shuffle", "repeat"])
    func toggle(_ action: String) throws {
        let (directory, mpd, probe) = try Self.player(songs: 1)
        defer { mpd.stop() }
        _ = probe.command("setvol 40")
        let key = ["mute": "volume", "shuffle": "random", "repeat": "repeat"][action]!
        let (off, on) = action == "mute" ? ("40", "0") : ("0", "1")
        #expect(probe.command("status")[key] == off)

        let (daemon, watcher, bridge) = try Harness.startBridge(
            directory, configuration: "{ devices: [ { profile: 'ec11', control: 'volume' } ] }",
            scenario: "mpd-two-taps.sim", mpd: directory + "/mpd.sock", bridgeArguments: ["--button", "BTN_0=\(action)"])
        defer { _ = daemon.stop() }
        defer { bridge.stop() }
        #expect(watcher.next(where: { $0["class"]?.stringValue == "button" && $0["action"]?.stringValue == "tap" }) != nil)
        #expect(Harness.eventually { probe.command("status")[key] == on }, "\(action) on: MPD's \(key) is \(probe.command("status")[key] ?? "?")")
        #expect(watcher.next(where: { $0["class"]?.stringValue == "button" && $0["action"]?.stringValue == "tap" }) != nil)
        #expect(Harness.eventually { probe.command("status")[key] == off }, "\(action) off: MPD's \(key) is \(probe.command("status")[key] ?? "?")")
        #expect(bridge.stop() == 0)
    }

    @Test("a knob configured as the navigator: +2 detents are two next, −1 a previous, as MPD's own song index says",
          .enabled(if: Harness.available, "mpd and sox are not installed (.ci/run installs them)"))
    func navigator() throws {
        let (directory, mpd, probe) = try Self.player(songs: 4)
        defer { mpd.stop() }
        _ = probe.command("play 0")
        #expect(probe.command("status")["song"] == "0")

        let (daemon, watcher, bridge) = try Harness.startBridge(
            directory, configuration: "{ devices: [ { profile: 'ec11', control: 'navigate' } ] }",
            scenario: "mpd-navigate.sim", mpd: directory + "/mpd.sock")
        defer { _ = daemon.stop() }
        defer { bridge.stop() }
        var steps: [Int] = []
        while steps.reduce(0, +) != 1 || steps.count < 3, let message = watcher.next() {
            if message["class"] == .string("navigate"), let step = message["steps"]?.doubleValue { steps.append(Int(step)) }
        }
        #expect(steps == [1, 1, -1], "\(steps)")
        // MPD passes 1 and 2 on the way: it must come to rest on 1 (the bridge answers within
        // milliseconds; 20 status round trips in a row at 1 are that rest).
        var restful = 0
        #expect(Harness.eventually {
            restful = probe.command("status")["song"] == "1" ? restful + 1 : 0
            return restful >= 20
        }, "MPD's song is \(probe.command("status")["song"] ?? "?")")
        let log = RepositoryPaths.read(directory + "/bridge.err") ?? ""
        #expect(!log.contains("refused"), "\(log)")
    }
}
