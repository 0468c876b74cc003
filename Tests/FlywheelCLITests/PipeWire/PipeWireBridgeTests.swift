@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// `flywheel pipewire` between a real flywheeld and Debian's real `pipewire` and `wireplumber`,
/// run headless for the test: a private XDG_RUNTIME_DIR, HOME and D-Bus session bus, and a null
/// sink as the default sink.
@Suite("flywheel pipewire against PipeWire and WirePlumber", .serialized, .timeLimit(.minutes(2)))
struct PipeWireBridgeTests {
    static let tools = ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/wpctl", "/usr/bin/pw-cli", "/usr/bin/pw-mon", "/usr/bin/dbus-daemon"]
    static var available: Bool { tools.allSatisfy { access($0, X_OK) == 0 } }

    /// PipeWire, WirePlumber and their bus, in `directory`.
    final class Session {
        let directory: String
        var environment: [String] { ["XDG_RUNTIME_DIR=\(directory)/run", "HOME=\(directory)", "XDG_STATE_HOME=\(directory)/state",
                                     "XDG_CONFIG_HOME=\(directory)/config", "DBUS_SESSION_BUS_ADDRESS=unix:path=\(directory)/run/bus"] }
        var bus: Child?, pipewire: Child?, wireplumber: Child?

        init(_ directory: String) throws {
            self.directory = directory
            mkdir(directory + "/run", 0o700)
            bus = try Child(["/usr/bin/dbus-daemon", "--session", "--address=unix:path=\(directory)/run/bus", "--nofork", "--nopidfile"],
                            stderrPath: directory + "/dbus.err", environment: environment)
            #expect(FaultyPeer.eventually { access(directory + "/run/bus", F_OK) == 0 }, "dbus-daemon did not start")
            try start()
        }

        /// PipeWire and WirePlumber, and the null sink, ready when wpctl reads its volume.
        func start() throws {
            unlink(directory + "/run/pipewire-0")
            pipewire = try Child(["/usr/bin/pipewire"], stderrPath: directory + "/pipewire.err", environment: environment)
            #expect(FaultyPeer.eventually { access(directory + "/run/pipewire-0", F_OK) == 0 }, "pipewire did not start: \(FaultyPeer.text(directory + "/pipewire.err"))")
            wireplumber = try Child(["/usr/bin/wireplumber"], stderrPath: directory + "/wireplumber.err", environment: environment)
            let sink = "{ factory.name=support.null-audio-sink node.name=flywheel-test media.class=Audio/Sink object.linger=true audio.position=[FL FR] }"
            #expect(ChildProcess.run("/usr/bin/pw-cli", ["create-node", "adapter", sink], environment: environment).status == 0)
            #expect(FaultyPeer.eventually { self.volume() != nil }, "no default sink: \(FaultyPeer.text(directory + "/wireplumber.err"))")
        }

        /// A session in a new temporary folder, its sink's volume set to 0.60.
        static func atSixty() throws -> Session {
            let session = try Session(FaultyPeer.temporaryDirectory())
            #expect(FaultyPeer.eventually { session.wpctl(["set-volume", "@DEFAULT_AUDIO_SINK@", "0.60"]).status == 0 })
            return session
        }

        func stop() {
            wireplumber?.stop()
            pipewire?.stop()
        }

        func wpctl(_ arguments: [String]) -> ChildProcess { ChildProcess.run("/usr/bin/wpctl", arguments, environment: environment) }

        /// `wpctl get-volume @DEFAULT_AUDIO_SINK@`'s text, or nil when it fails.
        func volume() -> String? {
            let run = wpctl(["get-volume", "@DEFAULT_AUDIO_SINK@"])
            return run.status == 0 ? run.out.trimmingCharacters() : nil
        }

        deinit {
            for child in [wireplumber, pipewire, bus] { child?.forceStop() }
        }
    }

    static func volume(_ socket: String) -> Int? { FaultyPeer.state(socket)?["volume"]?["volume"]?.doubleValue.map { Int($0) } }

    @Test("the sink's volume read into flywheeld; flywheeld's volume set with wpctl on the slider's scale; wpctl set-volume from elsewhere comes back; nothing runs at rest; PipeWire restarting is retried; SIGTERM ends it and its pw-mon",
          .enabled(if: available || HostTools.required, "pipewire, pipewire-bin, wireplumber or dbus-daemon is not installed (Tests/scripts/test.sh installs them)"))
    func followsTheDefaultSink() throws {
        let session = try Session.atSixty()
        let directory = session.directory
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["pipewire", "--socket", daemon.socketPath], stderrPath: directory + "/bridge.err", environment: session.environment)
        defer { bridge.forceStop() }

        #expect(FaultyPeer.eventually { Self.volume(daemon.socketPath) == 60 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        FaultyPeer.set(client, #"{"cmd":"set","control":"volume","volume":34}"#)
        #expect(FaultyPeer.eventually { session.volume() == "Volume: 0.34" }, "\(session.volume() ?? "no volume")")
        // wpctl's 0.34 is the slider's 34 %: channel volumes of 0.34³.
        #expect(session.wpctl(["set-volume", "@DEFAULT_AUDIO_SINK@", "0.3"]).status == 0)
        #expect(FaultyPeer.eventually { Self.volume(daemon.socketPath) == 30 }, "\(FaultyPeer.text(directory + "/bridge.err"))")

        // At rest: only pw-mon, no wpctl, and no CPU.
        let usage = FaultyPeer.usage(of: bridge.pid, over: 1)
        FaultyPeer.expectFrugal(usage, "flywheel pipewire at rest")
        #expect(Self.children(of: bridge.pid).map { $0.hasSuffix("pw-mon") } == [true], "\(Self.children(of: bridge.pid))")

        // PipeWire goes away and comes back (with WirePlumber): retried, the sink's volume read again.
        session.stop()
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("retrying in") })
        try session.start()
        // WirePlumber picks the default sink again a moment after the sink appears.
        #expect(FaultyPeer.eventually { session.wpctl(["set-volume", "@DEFAULT_AUDIO_SINK@", "0.52"]).status == 0 })
        #expect(FaultyPeer.eventually(seconds: 15) { Self.volume(daemon.socketPath) == 52 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        FaultyPeer.set(client, #"{"cmd":"set","control":"volume","volume":40}"#)
        #expect(FaultyPeer.eventually { session.volume() == "Volume: 0.40" }, "\(session.volume() ?? "no volume")")

        let monitor = try #require(Self.childPIDs(of: bridge.pid).first { FaultyPeer.text("/proc/\($0)/cmdline").hasPrefix("/usr/bin/pw-mon") })
        FaultyPeer.expectStopsPromptly(bridge, "flywheel pipewire")
        #expect(kill(monitor, 0) != 0, "pw-mon outlived the bridge")
    }

    @Test("the mute button through flywheeld: the first tap mutes the default sink, the second unmutes it, as wpctl get-volume says",
          .enabled(if: available || HostTools.required, "pipewire, pipewire-bin, wireplumber or dbus-daemon is not installed (Tests/scripts/test.sh installs them)"))
    func muteButton() throws {
        let session = try Session.atSixty()
        let directory = session.directory
        let (daemon, watcher) = try HTTPVolumeBridgeTests.tappingDaemon(directory)
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["pipewire", "--socket", daemon.socketPath, "--mute-button", "BTN_0"], stderrPath: directory + "/bridge.err",
                               environment: session.environment)
        defer { bridge.forceStop() }

        #expect(watcher.next(where: HTTPVolumeBridgeTests.isTap) != nil, "no tap: \(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(FaultyPeer.eventually { session.volume() == "Volume: 0.60 [MUTED]" }, "first tap: \(session.volume() ?? "no volume") \(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(watcher.next(where: HTTPVolumeBridgeTests.isTap) != nil)
        #expect(FaultyPeer.eventually { session.volume() == "Volume: 0.60" }, "second tap: \(session.volume() ?? "no volume")")
        // The mute leaves the volume alone, on both sides.
        #expect(Self.volume(daemon.socketPath) == 60)
        FaultyPeer.expectStopsPromptly(bridge, "flywheel pipewire")
    }

    @Test("flywheeld restarting: the bridge connects again and the sink's volume, changed meanwhile or not, is taken into the new flywheeld rather than its default set on the sink",
          .enabled(if: available || HostTools.required, "pipewire, pipewire-bin, wireplumber or dbus-daemon is not installed (Tests/scripts/test.sh installs them)"))
    func daemonRestarts() throws {
        let session = try Session.atSixty()
        let directory = session.directory
        var daemon = try DaemonProcess([])
        let socket = daemon.socketPath
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["pipewire", "--socket", socket], stderrPath: directory + "/bridge.err", environment: session.environment)
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { Self.volume(socket) == 60 }, "\(FaultyPeer.text(directory + "/bridge.err"))")

        // flywheeld goes away; the sink's volume changes while it is away; a new flywheeld (30 by default) comes.
        _ = daemon.stop()
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("flywheeld at \(socket): ") }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(session.wpctl(["set-volume", "@DEFAULT_AUDIO_SINK@", "0.44"]).status == 0)
        daemon = try DaemonProcess([], socketPath: socket)
        #expect(FaultyPeer.eventually(seconds: 15) { Self.volume(socket) == 44 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(session.volume() == "Volume: 0.44", "the new flywheeld's default reached the sink: \(session.volume() ?? "no volume")")

        // Again with nothing changed meanwhile (pw-mon says nothing): flywheeld's state coming is what reads the sink.
        _ = daemon.stop()
        daemon = try DaemonProcess([], socketPath: socket)
        #expect(FaultyPeer.eventually(seconds: 15) { Self.volume(socket) == 44 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(session.volume() == "Volume: 0.44", "the new flywheeld's default reached the sink: \(session.volume() ?? "no volume")")
        let connections = FaultyPeer.text(directory + "/bridge.err").components(separatedBy: "connected to flywheeld").count - 1
        #expect(connections == 3, "\(FaultyPeer.text(directory + "/bridge.err"))")

        // And the knob drives the sink again.
        let client = try TestClient(socket, timeoutSeconds: 5)
        FaultyPeer.set(client, #"{"cmd":"set","control":"volume","volume":36}"#)
        #expect(FaultyPeer.eventually { session.volume() == "Volume: 0.36" }, "\(session.volume() ?? "no volume")")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel pipewire")
    }

    @Test("without wpctl on PATH, a clear error and a non-zero exit")
    func wpctlMissing() throws {
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["pipewire", "--socket", "/nonexistent/flywheel.sock"], environment: ["PATH=/nonexistent"])
        #expect(run.status != 0)
        #expect(run.err.contains("'pipewire' needs wpctl, WirePlumber's control tool, on PATH; install it (sudo apt-get install wireplumber)."), "\(run.err)")
    }

    @Test("wpctl's volume on flywheeld's scale: its argument and its answer")
    func scale() {
        #expect(WpctlVolume.argument(34) == "0.34" && WpctlVolume.argument(5) == "0.05" && WpctlVolume.argument(100) == "1.00" && WpctlVolume.argument(0) == "0.00")
        #expect(WpctlVolume.parse("Volume: 0.40\n")! == (40, false))
        #expect(WpctlVolume.parse("Volume: 1.20 [MUTED]\n")! == (120, true))
        #expect(WpctlVolume.parse("Could not connect to PipeWire\n") == nil)
    }

    static func childPIDs(of pid: pid_t) -> [pid_t] {
        FaultyPeer.text("/proc/\(pid)/task/\(pid)/children").split(separator: " ").compactMap { pid_t($0) }
    }

    /// The programs `pid`'s children run (from /proc).
    static func children(of pid: pid_t) -> [String] {
        childPIDs(of: pid).map { FaultyPeer.text("/proc/\($0)/cmdline").split(separator: "\0").first.map(String.init) ?? "" }
    }
}
