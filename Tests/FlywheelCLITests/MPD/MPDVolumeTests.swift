import FlywheelCore
import Glibc
import Testing

/// The volume knob and the buttons through `flywheel mpd` to a real MPD with a software mixer,
/// behind a proxy that can answer late (as a busy player does) and counts the `setvol` commands.
@Suite("flywheel mpd: volume and transport against a real MPD", .serialized)
struct MPDVolumeTests {
    typealias Harness = MPDBridgeTests

    @Test("a fast volume turn: MPD ends where the knob does, never with more setvol commands than detents and with fewer when MPD answers late; a tap skips to the next song; MPD's own volume comes back",
          .enabled(if: Harness.available, "mpd and sox are not installed (.ci/run installs them)"), arguments: [0, 30])
    func volume(answerDelayMilliseconds: Int) throws {
        let directory = Harness.prepareMPD(mixer: "software")
        let mpd = try Harness.startMPD(directory)
        defer { mpd.stop() }
        let probe = try Harness.MPDProbe(directory + "/mpd.sock")
        _ = probe.command("update")
        #expect(Harness.eventually { probe.command("status")["updating_db"] == nil })
        _ = probe.command("add tone.wav")
        _ = probe.command("add tone.wav")
        _ = probe.command("play 0")
        _ = probe.command("pause 1")
        _ = probe.command("setvol 20")
        #expect(probe.command("status")["volume"] == "20")
        let proxy = try SlowMPDProxy(path: directory + "/slow.sock", mpdPath: directory + "/mpd.sock", delayMilliseconds: answerDelayMilliseconds)
        defer { proxy.stop() }

        let (daemon, watcher, bridge) = try Harness.startBridge(
            directory, configuration: "{ controls: { volume: { step: 2, start: 50 } }, devices: [ { profile: 'ec11', control: 'volume' } ] }",
            scenario: "mpd-volume.sim", mpd: directory + "/slow.sock", bridgeArguments: ["--button", "BTN_0=next"])
        defer { _ = daemon.stop() }
        defer { bridge.stop() }

        // MPD's volume (20) reaches flywheeld before the knob moves: the daemon's start (50) gives way.
        let readBack = try #require(watcher.next(where: { $0["class"]?.stringValue == "volume" }))
        #expect(readBack["phase"] == .string("set") && readBack["volume"] == .int(20), "\(readBack.encoded())")
        // The turn: count the detents until the volume settles.
        var moved = 0
        var settled: Int?
        while settled == nil, let message = watcher.next() {
            guard message["class"]?.stringValue == "volume" else { continue }
            if message["phase"] == .string("moved") { moved += 1 }
            if message["phase"] == .string("settled") { settled = message["volume"]?.doubleValue.map { Int($0) } }
        }
        let final = try #require(settled)
        #expect(final >= 70, "30 fast detents of 2 from 20, settled at \(final) after \(moved) detents")
        #expect(Harness.eventually { probe.command("status")["volume"] == String(final) }, "MPD at \(probe.command("status")["volume"] ?? "?"), knob at \(final)")
        let setvols = proxy.setvols.load(ordering: .relaxed)
        // The measurement, in the test log.
        print("flywheel mpd: \(setvols) setvol commands for \(moved) volume detents, MPD answering \(answerDelayMilliseconds) ms late")
        #expect(setvols >= 1 && setvols <= moved, "\(setvols) setvol commands for \(moved) detents")
        if answerDelayMilliseconds > 0 { #expect(setvols < moved, "\(setvols) setvol commands for \(moved) detents") }

        // The button's tap: `next`.
        #expect(watcher.next(where: { $0["class"]?.stringValue == "button" && $0["action"]?.stringValue == "tap" }) != nil)
        #expect(Harness.eventually { probe.command("status")["song"] == "1" })

        // Another client changes MPD's volume: it comes back to flywheeld as a `set` (35 between
        // the knob's steps of 2: flywheeld takes 34), and MPD keeps its own 35.
        let before = proxy.setvols.load(ordering: .relaxed)
        _ = probe.command("setvol 35")
        let back = watcher.next(where: { $0["class"]?.stringValue == "volume" && $0["phase"]?.stringValue == "set" })
        #expect(back?["volume"] == .int(34), "\(back?.encoded() ?? "nothing")")
        #expect(bridge.stop() == 0)
        #expect(probe.command("status")["volume"] == "35" && proxy.setvols.load(ordering: .relaxed) == before)
        let log = RepositoryPaths.read(directory + "/bridge.err") ?? ""
        #expect(log.contains("stopping; \(setvols) setvol commands sent."), "\(log)")
    }

    @Test("MPD's volume set from another client three times (40, 50, then 47) while flywheeld leaves the bridge's sets unread: one read-back at a time, then the latest; MPD keeps 47, flywheeld ends at 46 (47 on its 2-step grid), and the bridge never sends setvol",
          .enabled(if: Harness.available, "mpd and sox are not installed (.ci/run installs them)"))
    func changesWhileFlywheeldIsBusy() throws {
        let (directory, mpd, probe) = try MPDButtonActionTests.player(songs: 1)
        defer { mpd.stop() }
        _ = probe.command("play 0")
        _ = probe.command("pause 1")
        _ = probe.command("setvol 60")
        let proxy = try SlowMPDProxy(path: directory + "/proxy.sock", mpdPath: directory + "/mpd.sock", delayMilliseconds: 0)
        defer { proxy.stop() }
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let relay = try BusyDaemonRelay(path: directory + "/relay.sock", daemonPath: daemon.socketPath)
        defer { relay.stop() }
        let bridge = try Harness.Background(
            [ChildProcess.product("flywheel"), "mpd", "--socket", relay.path, "--mpd", proxy.path], stderrPath: directory + "/bridge.err")
        defer { bridge.stop() }
        let log = { RepositoryPaths.read(directory + "/bridge.err") ?? "" }
        let flywheel = { PipeWireBridgeTests.volume(daemon.socketPath) }
        #expect(Harness.eventually { flywheel() == 60 && relay.echoed == [60] }, "\(relay.sets) \(log())")

        // Each read of MPD's status sends flywheeld the song's position (never held): a read is
        // done once its position has reached the relay, and the volume set it sent, if any, before it.
        let reads = { Self.positions(relay.fromBridge) }
        let seekRead = { (seconds: Double) in
            _ = probe.command("seekcur \(Int(seconds))")
            #expect(Harness.eventually { reads().contains { abs($0 - seconds) < 0.5 } }, "positions read \(reads())")
        }
        relay.hold()
        // Another client's slider, three times; each change read before the next is made.
        for volume in [40, 50, 47] {
            let before = reads().count
            _ = probe.command("setvol \(volume)")
            #expect(Harness.eventually { reads().count > before }, "MPD's setvol \(volume) not read: \(log())")
        }
        // A seek: once it is read, the bridge has done with the 47 before it.
        seekRead(20)
        #expect(relay.sets == [60, 40], "read-backs sent to flywheeld before the first one's echo: \(relay.sets.dropFirst())")

        // flywheeld comes round to what waited: the first read-back's echo, then MPD's latest volume.
        let start = MonotonicClockForTests.now()
        #expect(relay.release(), "an echo did not come: \(relay.echoed)")
        #expect(Harness.eventually { flywheel() == 46 && relay.echoed.last == 46 }, "\(relay.sets) \(relay.echoed) \(log())")
        let milliseconds = Int((MonotonicClockForTests.now() - start) * 1000)
        // A later seek read: whatever the echoes made the bridge send MPD went before it.
        seekRead(40)
        let volume = probe.command("status")["volume"]
        print("flywheel mpd: three volume changes while flywheeld was busy; read-backs \(relay.sets.dropFirst()), echoes \(relay.echoed), setvol \(proxy.setvolVolumes), MPD at \(volume ?? "?"), flywheeld at the latest \(milliseconds) ms after it came round")
        #expect(proxy.setvolVolumes == [], "the bridge set MPD back: setvol \(proxy.setvolVolumes)")
        #expect(volume == "47")
        #expect(flywheel() == 46)
        #expect(relay.sets == [60, 40, 47])
        #expect(!relay.toBridge.contains { $0["class"]?.stringValue == "error" }, "\(relay.toBridge.map { $0.encoded() })")
        #expect(bridge.stop() == 0)
        #expect(log().contains("stopping; 0 setvol commands sent."), "\(log())")
    }

    /// The positions of the scrub `set` commands among `lines` (the bridge's, one a read of MPD's status).
    static func positions(_ lines: [JSONValue]) -> [Double] {
        lines.filter { $0["cmd"]?.stringValue == "set" && $0["control"]?.stringValue == "scrub" }.compactMap { $0["position"]?.doubleValue }
    }

    @Test("an MPD without a mixer: one clear message, no loop of errors",
          .enabled(if: Harness.available, "mpd and sox are not installed (.ci/run installs them)"))
    func noMixer() throws {
        let directory = Harness.prepareMPD(mixer: "none")
        let mpd = try Harness.startMPD(directory)
        defer { mpd.stop() }
        let (daemon, watcher, bridge) = try Harness.startBridge(
            directory, configuration: "{ devices: [ { profile: 'ec11', control: 'volume' } ] }", scenario: "mpd-volume.sim", mpd: directory + "/mpd.sock")
        defer { _ = daemon.stop() }
        #expect(watcher.next(where: { $0["class"]?.stringValue == "volume" && $0["phase"]?.stringValue == "settled" }) != nil)
        #expect(watcher.next(where: { $0["class"]?.stringValue == "button" && $0["action"]?.stringValue == "tap" }) != nil)
        #expect(bridge.stop() == 0)
        let log = RepositoryPaths.read(directory + "/bridge.err") ?? ""
        #expect(log.components(separatedBy: "has no mixer").count - 1 == 1, "\(log)")
        #expect(!log.contains("refused"), "\(log)")
        #expect(log.contains("stopping; 0 setvol commands sent."), "\(log)")
    }
}
