import Glibc
import Testing

/// `flywheel mpd` as a real child process between a real flywheeld and a fake MPD that misbehaves
/// (issue 33, cases 1 and 2 and the greet-and-drop peer of case 8): whatever MPD does, SIGTERM ends
/// the bridge within 100 ms, its memory stays under 20 MB and its CPU near zero, and a peer that
/// drops every connection is tried with backoff, not four times a second forever.
@Suite("flywheel mpd against a faulty MPD (issue 33)", .serialized, .timeLimit(.minutes(1)))
struct MPDFaultyPeerTests {
    enum Fault: String, CaseIterable, Sendable {
        case silentAfterGreeting, tenMegabyteLine, stallMidAnswer

        var behaviour: FakeMPD.Behaviour {
            switch self {
            case .silentAfterGreeting: return .silent
            case .tenMegabyteLine: return .hugeLine(bytes: 10 << 20)
            case .stallMidAnswer: return .stallMidAnswer
            }
        }
    }

    /// flywheeld (no devices) and `flywheel mpd` to `fake`, its standard error in DIRECTORY/bridge.err.
    static func start(_ fake: FakeMPD, _ directory: String) throws -> (DaemonProcess, Child) {
        let daemon = try DaemonProcess([])
        let bridge = try Child(
            flywheel: ["mpd", "--socket", daemon.socketPath, "--mpd", fake.address], stderrPath: directory + "/bridge.err")
        return (daemon, bridge)
    }

    @Test("case 1: SIGTERM ends flywheel mpd within 100 ms while MPD is silent after its greeting, sends a 10 MB line, or stalls mid-answer; meanwhile under 20 MB and near zero CPU",
          arguments: Fault.allCases)
    func sigtermWhileMPDMisbehaves(fault: Fault) throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(fault.behaviour)
        defer { fake.stop() }
        let (daemon, bridge) = try Self.start(fake, directory)
        defer { _ = daemon.stop() }
        defer { bridge.forceStop() }

        // The bridge has asked MPD something (its first command, `status`) and waits for the answer.
        #expect(FaultyPeer.eventually { fake.allCommands.contains("status") }, "MPD got \(fake.allCommands); \(FaultyPeer.text(directory + "/bridge.err"))")
        if fault == .tenMegabyteLine {
            // The whole line has gone out, or the bridge cut it off (not asserted: a bridge may
            // also stop reading at its limit, which leaves the fake's send waiting).
            _ = FaultyPeer.eventually(seconds: 3) { fake.record.hugeLinesEnded >= 1 }
        }
        let usage = FaultyPeer.usage(of: bridge.pid, over: 1)
        FaultyPeer.expectFrugal(usage, "flywheel mpd against MPD (\(fault.rawValue))")
        #expect(!bridge.hasExited, "the bridge ended by itself (status \(bridge.status ?? -1)): \(FaultyPeer.text(directory + "/bridge.err"))")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd against MPD (\(fault.rawValue))")
    }

    @Test("case 2: an MPD that streams a line without a newline: flywheel mpd stays under 20 MB and near zero CPU, and SIGTERM ends it within 100 ms")
    func endlessLine() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(.endlessLine)
        defer { fake.stop() }
        let (daemon, bridge) = try Self.start(fake, directory)
        defer { _ = daemon.stop() }
        defer { bridge.forceStop() }

        #expect(FaultyPeer.eventually { fake.record.streamedBytes > 0 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        // Two seconds of the stream, as the issue measured it (76 MB and 4.85 s of CPU in 5 s).
        let usage = FaultyPeer.usage(of: bridge.pid, over: 2)
        print("flywheel mpd against an endless line: \(usage), \(fake.record.streamedBytes >> 20) MB streamed over \(fake.connectionCount) connections")
        FaultyPeer.expectFrugal(usage, "flywheel mpd against an endless MPD line")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd against an endless MPD line")
    }

    @Test("case 8: an MPD that greets and drops at once is tried with a growing backoff, not 4 times a second forever")
    func greetAndDrop() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fake = try FakeMPD(.greetAndDrop)
        defer { fake.stop() }
        let (daemon, bridge) = try Self.start(fake, directory)
        defer { _ = daemon.stop() }
        defer { bridge.forceStop() }

        #expect(FaultyPeer.eventually { fake.connectionCount >= 1 }, "\(FaultyPeer.text(directory + "/bridge.err"))")
        let first = fake.record.connections[0]
        // A window of 3 s from the first connection, measured (not a synchronisation): with a
        // backoff that doubles from 0.25 s and resets only after a connection has lived a while,
        // 4 connections (0, 0.25, 0.75, 1.75 s); with one reset by every greeting, 12 or 13.
        let usage = FaultyPeer.usage(of: bridge.pid, over: max(0, first + 3 - MonotonicClockForTests.now()))
        let times = fake.record.connections.map { $0 - first }.filter { $0 <= 3 }
        let late = times.filter { $0 > 1.5 }
        let shown = times.map { FakeMPD.fixed($0) }.joined(separator: " ")
        #expect(times.count <= 6, "\(times.count) connections in 3 s, at \(shown) s")
        #expect(late.count <= 2, "\(late.count) connections between 1.5 and 3 s, at \(shown) s")
        #expect(usage.cpuShare < FaultyPeer.cpuLimit, "\(usage)")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel mpd against an MPD that drops every connection")
    }
}
