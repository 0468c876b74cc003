import Glibc
import Testing

/// `flywheel pipewire` as a real child process between a real flywheeld and stand-ins for PipeWire's
/// `pw-mon` and WirePlumber's `wpctl` (shell scripts first on its PATH) that print far more than
/// the bridge keeps: pw-mon's output is read in lines of at most 4 KiB, and of a wpctl's output the
/// first 4 KiB are kept. Driven past both bounds, the bridge stays under the faulty peers' 20 MB
/// (issue 33), goes on reading the volume into flywheeld, and says no more of the flood than a line.
/// Then a flywheeld slow to take the bridge's sets, while the stand-ins report a burst of changes.
@Suite("flywheel pipewire against a pw-mon and a wpctl that print megabytes, and a busy flywheeld", .serialized, .timeLimit(.minutes(1)))
struct PipeWireFaultyPeerTests {
    /// What a stand-in prints where the bridge keeps 4 KiB: 16 MiB, so that a bridge holding it
    /// all would be far over 20 MB.
    static let flood = 16 << 20

    /// The stand-ins, in DIRECTORY/bin. pw-mon prints only what the test asks for, one line of the
    /// FIFO DIRECTORY/monitor at a time: `change` prints a node's change; `line N` prints N bytes
    /// with no newline, ends that line, then prints a node's change. (No first dump, unlike the real
    /// one: flywheeld's state makes the bridge's one read at start, and every later read is the
    /// test's.) wpctl's get-volume prints DIRECTORY/answer and exits with the status in
    /// DIRECTORY/status; set-volume V makes the answer `Volume: V` and, as PipeWire does, has
    /// pw-mon print the node's change. Every wpctl run appends its command to DIRECTORY/runs
    /// (set-volume with its V; get-volume once it has printed its answer).
    final class StandIns {
        let directory: String
        /// The test's end of the FIFO (read and write, so that neither side's open waits).
        let monitorFD: Int32

        init() throws {
            directory = FaultyPeer.temporaryDirectory()
            mkdir(directory + "/bin", 0o755)
            guard mkfifo(directory + "/monitor", 0o600) == 0 else { throw TestFailure("mkfifo failed: errno \(errno)") }
            monitorFD = open(directory + "/monitor", O_RDWR | O_CLOEXEC)
            guard monitorFD >= 0 else { throw TestFailure("opening the FIFO failed: errno \(errno)") }
            let change = #"printf 'changed:\n\tid: 31\n\tpermissions: rwxm\n\ttype: PipeWire:Interface:Node/3\n'"#
            let pwMon = """
                #!/bin/sh
                exec 3< '\(directory)/monitor'
                while read -r command bytes <&3; do
                    if [ "$command" = line ]; then head -c "$bytes" /dev/zero | tr '\\0' x; printf '\\n'; fi
                    \(change)
                done
                """
            let wpctl = """
                #!/bin/sh
                case "$1" in
                get-volume) ;;
                set-volume)
                    printf 'Volume: %s\\n' "$3" > '\(directory)/answer.set'
                    mv '\(directory)/answer.set' '\(directory)/answer'
                    echo "$1 $3" >> '\(directory)/runs'
                    echo change > '\(directory)/monitor'
                    exit 0 ;;
                *) echo "$1" >> '\(directory)/runs'; exit 0 ;;
                esac
                cat '\(directory)/answer'
                status="$(cat '\(directory)/status')"
                echo "$1" >> '\(directory)/runs'
                exit "$status"
                """
            for (name, script) in [("pw-mon", pwMon), ("wpctl", wpctl)] {
                RepositoryPaths.write(script + "\n", to: "\(directory)/bin/\(name)")
                chmod("\(directory)/bin/\(name)", 0o755)
            }
            answer("Volume: 0.60\n")
        }

        deinit {
            close(monitorFD)
            unlink(directory + "/answer")  // up to 16 MiB
        }

        /// The bridge's standard error.
        var log: String { directory + "/bridge.err" }

        /// PATH with the stand-ins first.
        var environment: [String] { ["PATH=\(directory)/bin:/usr/bin:/bin"] }

        /// What wpctl get-volume prints from now on, and its exit status.
        func answer(_ text: String, status: Int32 = 0) {
            RepositoryPaths.write("\(status)\n", to: directory + "/status")
            RepositoryPaths.write(text, to: directory + "/answer.new")
            rename(directory + "/answer.new", directory + "/answer")
        }

        /// How many times wpctl get-volume has printed its answer.
        var reads: Int { FaultyPeer.lines(directory + "/runs").filter { $0 == "get-volume" }.count }

        /// wpctl set-volume's volumes, in order.
        var sets: [String] { FaultyPeer.lines(directory + "/runs").filter { $0.hasPrefix("set-volume ") }.map { String($0.dropFirst("set-volume ".count)) } }

        /// A command to the stand-in pw-mon.
        func monitor(_ command: String) {
            let bytes = Array((command + "\n").utf8)
            #expect(bytes.withUnsafeBytes { write(monitorFD, $0.baseAddress, $0.count) } == bytes.count)
        }
    }

    /// Runs `body` with flywheeld (no devices) and `flywheel pipewire` on new stand-ins, once the
    /// bridge's one read at start has brought the stand-in's first answer (60) into flywheeld; when
    /// `relayed`, the bridge reaches flywheeld through a ``BusyDaemonRelay`` (given to `body`).
    static func withBridge(relayed: Bool = false, _ body: (StandIns, DaemonProcess, Child, BusyDaemonRelay?) throws -> Void) throws {
        let standIns = try StandIns()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let relay = relayed ? try BusyDaemonRelay(path: standIns.directory + "/relay.sock", daemonPath: daemon.socketPath) : nil
        defer { relay?.stop() }
        let bridge = try Child(flywheel: ["pipewire", "--socket", relay?.path ?? daemon.socketPath], stderrPath: standIns.log, environment: standIns.environment)
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { PipeWireBridgeTests.volume(daemon.socketPath) == 60 }, "\(FaultyPeer.text(standIns.log))")
        #expect(standIns.reads == 1, "wpctl ran \(FaultyPeer.lines(standIns.directory + "/runs"))")
        try body(standIns, daemon, bridge, relay)
    }

    @Test("pw-mon prints a line of 16 MiB before a node's change: the line dropped, the change still reads the volume into flywheeld, under 20 MB, and nothing said of it")
    func monitorLineOverBound() throws {
        try Self.withBridge { standIns, daemon, bridge, _ in
            let log = standIns.log
            let monitorPID = PipeWireBridgeTests.childPIDs(of: bridge.pid).first
            let before = FaultyPeer.residentKilobytes(bridge.pid, field: "VmHWM") ?? 0

            standIns.answer("Volume: 0.48\n")
            let start = MonotonicClockForTests.now()
            standIns.monitor("line \(Self.flood)")
            // Only the change after the line reads the volume (no other read is asked for: the one at start is done).
            #expect(FaultyPeer.eventually(seconds: 20) { PipeWireBridgeTests.volume(daemon.socketPath) == 48 }, "\(FaultyPeer.text(log))")
            let seconds = MonotonicClockForTests.now() - start
            #expect(standIns.reads == 2, "wpctl ran \(FaultyPeer.lines(standIns.directory + "/runs"))")
            let peak = FaultyPeer.expectPeakUnderBound(bridge.pid, "flywheel pipewire after a 16 MiB pw-mon line")
            print("flywheel pipewire: a 16 MiB pw-mon line and the change after it read in \(Int(seconds * 1000)) ms; peak RSS \(before) kB before it, \(peak) kB after")

            // The same pw-mon still runs (the bridge neither ended it nor started another), and a later change reads the volume again.
            #expect(monitorPID != nil && PipeWireBridgeTests.childPIDs(of: bridge.pid) == [monitorPID!], "\(PipeWireBridgeTests.children(of: bridge.pid))")
            standIns.answer("Volume: 0.42\n")
            standIns.monitor("change")
            #expect(FaultyPeer.eventually { PipeWireBridgeTests.volume(daemon.socketPath) == 42 }, "\(FaultyPeer.text(log))")
            // The dropped line is pw-mon's chatter, not a fault: nothing of it reaches the log.
            #expect(!FaultyPeer.text(log).contains("xxxx") && FaultyPeer.lines(log).count == 1, "\(FaultyPeer.text(log))")
            FaultyPeer.expectFrugal(FaultyPeer.usage(of: bridge.pid, over: 0.5), "flywheel pipewire at rest after a 16 MiB pw-mon line")
            FaultyPeer.expectStopsPromptly(bridge, "flywheel pipewire after a 16 MiB pw-mon line")
        }
    }

    @Test("wpctl get-volume prints 16 MiB: after its volume, the volume taken; before it, said in one short line as not a volume; failing, said with its first line cut to 200 bytes and retried; each time under 20 MB")
    func commandOutputOverBound() throws {
        try Self.withBridge { standIns, daemon, bridge, _ in
            let log = standIns.log
            let junk = String(repeating: "#", count: Self.flood)
            let before = FaultyPeer.residentKilobytes(bridge.pid, field: "VmHWM") ?? 0

            // The volume first, then 16 MiB: the first 4 KiB kept hold the volume.
            standIns.answer("Volume: 0.48\n" + junk)
            standIns.monitor("change")
            #expect(FaultyPeer.eventually(seconds: 20) { PipeWireBridgeTests.volume(daemon.socketPath) == 48 }, "\(FaultyPeer.text(log))")
            let afterVolume = FaultyPeer.expectPeakUnderBound(bridge.pid, "flywheel pipewire after 16 MiB from wpctl after its volume")

            // 16 MiB, then the volume: the first 4 KiB hold no volume, said in a line of its first 80 bytes.
            standIns.answer(junk + "\nVolume: 0.52\n")
            standIns.monitor("change")
            #expect(FaultyPeer.eventually(seconds: 20) { FaultyPeer.text(log).contains("not a volume") }, "\(FaultyPeer.text(log))")
            let notVolume = FaultyPeer.lines(log).filter { $0.contains("not a volume") }
            #expect(notVolume == ["flywheel pipewire: wpctl get-volume answered '\(String(repeating: "#", count: 80))', not a volume."], "\(notVolume)")
            #expect(PipeWireBridgeTests.volume(daemon.socketPath) == 48)
            let afterJunk = FaultyPeer.expectPeakUnderBound(bridge.pid, "flywheel pipewire after 16 MiB from wpctl before its volume")

            // wpctl failing with 16 MiB on its first line: said with 200 bytes of it, retried with backoff, and the retry's volume taken.
            standIns.answer(junk + "\n", status: 1)
            standIns.monitor("change")
            #expect(FaultyPeer.eventually(seconds: 20) { FaultyPeer.text(log).contains("wpctl exited with status 1") }, "\(FaultyPeer.text(log))")
            let failed = FaultyPeer.lines(log).filter { $0.contains("wpctl exited with status 1") }
            #expect(failed.first?.contains(": " + String(repeating: "#", count: 200) + ";") == true && failed.first?.contains(String(repeating: "#", count: 201)) == false,
                    "\(failed.first.map { String($0.prefix(400)) } ?? "")")
            standIns.answer("Volume: 0.52\n")
            #expect(FaultyPeer.eventually { PipeWireBridgeTests.volume(daemon.socketPath) == 52 }, "\(FaultyPeer.text(log).prefix(2000))")
            #expect(FaultyPeer.eventually { FaultyPeer.text(log).contains("wpctl reaches PipeWire again.") }, "\(FaultyPeer.text(log).prefix(2000))")

            let peak = FaultyPeer.expectPeakUnderBound(bridge.pid, "flywheel pipewire after 16 MiB from a failing wpctl")
            // Short lines in the bridge's log, whatever wpctl printed.
            let longest = FaultyPeer.lines(log).map(\.utf8.count).max() ?? 0
            #expect(longest < 400, "a line of \(longest) bytes in the log")
            print("flywheel pipewire: 16 MiB answers from wpctl; peak RSS \(before) kB before them, then \(afterVolume), \(afterJunk), \(peak) kB; log \(FaultyPeer.text(log).utf8.count) bytes, its longest line \(longest)")
            FaultyPeer.expectFrugal(FaultyPeer.usage(of: bridge.pid, over: 0.5), "flywheel pipewire at rest after 16 MiB answers from wpctl")
            FaultyPeer.expectStopsPromptly(bridge, "flywheel pipewire after 16 MiB answers from wpctl")
        }
    }

    @Test("the sink's volume changed three times (40, 50, then 47) while flywheeld leaves the bridge's sets unread: one read-back at a time, then the latest; the sink keeps 47, flywheeld ends at 46 (47 on its 2-step grid), and wpctl set-volume never runs")
    func burstWhileFlywheeldIsBusy() throws {
        try Self.withBridge(relayed: true) { standIns, daemon, bridge, relay in
            let relay = try #require(relay)
            let log = standIns.log
            let runs = { FaultyPeer.lines(standIns.directory + "/runs") }
            relay.hold()

            // The desktop's slider, three times; each change read before the next is made.
            for (index, volume) in [40, 50, 47].enumerated() {
                standIns.answer("Volume: 0.\(volume)\n")
                standIns.monitor("change")
                #expect(FaultyPeer.eventually { standIns.reads == 2 + index }, "\(runs()) \(FaultyPeer.text(log))")
            }
            // A change that reads 47 again: once it is read, the bridge has done with the 47 before it.
            standIns.monitor("change")
            #expect(FaultyPeer.eventually { standIns.reads == 5 }, "\(runs())")
            #expect(relay.sets == [60, 40], "read-backs sent to flywheeld before the first one's echo: \(relay.sets.dropFirst())")

            // flywheeld comes round to what waited: the first read-back's echo, then the sink's latest volume.
            let start = MonotonicClockForTests.now()
            #expect(relay.release(), "an echo did not come: \(relay.echoed)")
            #expect(FaultyPeer.eventually { PipeWireBridgeTests.volume(daemon.socketPath) == 46 && relay.echoed.last == 46 }, "\(relay.sets) \(relay.echoed) \(FaultyPeer.text(log))")
            let seconds = MonotonicClockForTests.now() - start
            // A later change read: whatever the echoes made the bridge write to the sink ran before it.
            let reads = standIns.reads
            standIns.monitor("change")
            #expect(FaultyPeer.eventually { standIns.reads > reads }, "\(runs())")
            #expect(standIns.sets == [], "the bridge set the sink back: \(standIns.sets)")
            #expect(FaultyPeer.text(standIns.directory + "/answer") == "Volume: 0.47\n")
            #expect(PipeWireBridgeTests.volume(daemon.socketPath) == 46)
            #expect(relay.sets == [60, 40, 47])
            print("flywheel pipewire: three changes while flywheeld was busy; read-backs \(relay.sets.dropFirst()), echoes \(relay.echoed), flywheeld at the latest \(Int(seconds * 1000)) ms after it came round; wpctl runs \(runs())")
            FaultyPeer.expectStopsPromptly(bridge, "flywheel pipewire after a burst while flywheeld was busy")
        }
    }
}
