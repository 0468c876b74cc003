import FlywheelCore
import Glibc
import Testing

/// `flywheel connect` as a real child process in front of a real flywheeld, fed bursts, over-long
/// lines and invalid UTF-8, with its output closed, and with the daemon stopped (issue 33, cases 1,
/// 4 and 5 and the connect items of case 8).
@Suite("flywheel connect against bursts and a stalled daemon (issue 33)", .serialized, .timeLimit(.minutes(1)))
struct ConnectFaultyPeerTests {
    /// `flywheel connect` with its standard input from a socket pair (the test's end is returned;
    /// it writes with MSG_NOSIGNAL, so a connect that died is a failed expectation, not a SIGPIPE),
    /// its output in DIRECTORY/connect.out and DIRECTORY/connect.err.
    static func start(_ socket: String, _ directory: String) throws -> (Child, Int32) {
        let pair = FaultyPeer.inputPair()
        defer { close(pair.child) }
        let connect = try Child(
            flywheel: ["connect", "--socket", socket], stdinFD: pair.child, stdoutPath: directory + "/connect.out",
            stderrPath: directory + "/connect.err")
        return (connect, pair.test)
    }

    static func messages(_ directory: String) -> [JSONValue] {
        FaultyPeer.lines(directory + "/connect.out").compactMap { try? JSONParser.parse(Array($0.utf8)) }
    }

    @Test("case 4: 2,000 pings piped in at once get 2,000 pongs, in order, none dropped")
    func burstOfPings() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let (connect, input) = try Self.start(daemon.socketPath, directory)
        defer { close(input) }
        defer { connect.forceStop() }

        let burst = Array(String(repeating: #"{"cmd":"ping"}"# + "\n", count: 2000).utf8)
        #expect(FaultyPeer.send(input, burst) == burst.count)
        func pongs() -> [Int] {
            Self.messages(directory).filter { $0["class"] == .string("pong") }.compactMap { $0["seq"]?.doubleValue.map { Int($0) } }
        }
        // The input stays open (as `{ …; sleep 7; } |` in the issue): the answers must come while it does.
        #expect(FaultyPeer.eventually(seconds: 4) { pongs().count >= 2000 }, "\(pongs().count) of 2000 pongs; \(FaultyPeer.text(directory + "/connect.err").prefix(500))")
        let seqs = pongs()
        #expect(seqs.count == 2000)
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "the pongs are out of order")
        let errors = Self.messages(directory).filter { $0["class"] == .string("error") }
        #expect(errors.isEmpty, "\(errors.prefix(3).map { $0.encoded() })")
        #expect(!FaultyPeer.text(directory + "/connect.err").contains("dropped"), "\(FaultyPeer.text(directory + "/connect.err").prefix(500))")

        shutdown(input, Int32(SHUT_WR))
        #expect(FaultyPeer.eventually { connect.hasExited })
        #expect(connect.status == 0, "\(FaultyPeer.text(directory + "/connect.err").prefix(500))")
    }

    @Test("case 5: a line over 64 KiB is answered with an error as the daemon would (line-too-long), and its tail is not run")
    func overLongLine() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let (connect, input) = try Self.start(daemon.socketPath, directory)
        defer { close(input) }
        defer { connect.forceStop() }

        // 65,536 bytes of 'x' and a command, on one line of 65,578 bytes: over the daemon's 64 KiB.
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 65536) + Array(#"{"cmd":"set","control":"tempo","bpm":77}"#.utf8) + [0x0A]
        #expect(FaultyPeer.send(input, line) == line.count)
        func tooLong() -> Bool {
            Self.messages(directory).contains { $0["class"] == .string("error") && $0["code"] == .string(ErrorCode.lineTooLong.rawValue) }
        }
        #expect(FaultyPeer.eventually(seconds: 3) { tooLong() },
                "connect printed \(Self.messages(directory).filter { $0["class"] != .string("hello") }.map { $0.encoded() })")
        let bpm = FaultyPeer.state(daemon.socketPath)?["tempo"]?["bpm"]?.doubleValue
        #expect(bpm != nil && bpm != 77, "the tempo is \(bpm ?? -1): the line's tail ran as a command")
    }

    @Test("case 8: printf '{\"cmd\":\"get\"}\\n{\"cmd\":\"ping\"}\\n' | flywheel connect prints both answers, 5 runs out of 5")
    func answersBeforeEndOfInput() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        RepositoryPaths.write(#"{"cmd":"get"}"# + "\n" + #"{"cmd":"ping"}"# + "\n", to: directory + "/input")
        var complete = 0
        for run in 1...5 {
            let input = open(directory + "/input", O_RDONLY | O_CLOEXEC)
            let out = directory + "/connect-\(run).out"
            let connect = try Child(
                flywheel: ["connect", "--socket", daemon.socketPath], stdinFD: input, stdoutPath: out, stderrPath: directory + "/connect-\(run).err")
            close(input)
            defer { connect.forceStop() }
            #expect(FaultyPeer.eventually { connect.hasExited }, "run \(run): connect did not end at the end of its input")
            let classes = FaultyPeer.lines(out).compactMap { try? JSONParser.parse(Array($0.utf8)) }.compactMap { $0["class"]?.stringValue }
            if classes.contains("state") && classes.contains("pong") && connect.status == 0 { complete += 1 } else {
                Issue.record("run \(run): status \(connect.status ?? -1), printed \(classes)")
            }
        }
        #expect(complete == 5)
    }

    @Test("case 8: when its standard output closes, connect says so on standard error and exits non-zero, not silently by SIGPIPE")
    func outputClosed() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        var output: [Int32] = [0, 0]
        #expect(pipe(&output) == 0)
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[1], F_SETFD, FD_CLOEXEC)
        close(output[0])  // its reader has gone before the first line
        let pair = FaultyPeer.inputPair()
        let connect = try Child(
            flywheel: ["connect", "--socket", daemon.socketPath], stdinFD: pair.child, stdoutFD: output[1], stderrPath: directory + "/connect.err")
        close(pair.child)
        close(output[1])
        defer { close(pair.test) }
        defer { connect.forceStop() }

        // The daemon's hello is its first line out; the input stays open.
        #expect(FaultyPeer.eventually(seconds: 3) { connect.hasExited }, "connect kept running with its output closed")
        let log = FaultyPeer.text(directory + "/connect.err")
        #expect(connect.status != 128 + SIGPIPE, "connect was killed by SIGPIPE; it said: '\(log)'")
        #expect(connect.status != 0, "status \(connect.status ?? -1)")
        #expect(!log.isEmpty, "connect said nothing on standard error (status \(connect.status ?? -1))")
    }

    @Test("case 8: invalid UTF-8 reaches the daemon unchanged, and connect prints the daemon's invalid-utf8 answer")
    func invalidUTF8() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let (connect, input) = try Self.start(daemon.socketPath, directory)
        defer { close(input) }
        defer { connect.forceStop() }

        // A ping with a byte that is never UTF-8; replaced by U+FFFD, the daemon would answer
        // unknown-field ("ping" does not take "note") instead.
        let line = Array(#"{"cmd":"ping","note":""#.utf8) + [0xFF] + Array(#""}"#.utf8) + [0x0A]
        #expect(FaultyPeer.send(input, line) == line.count)
        func errors() -> [JSONValue] { Self.messages(directory).filter { $0["class"] == .string("error") } }
        #expect(FaultyPeer.eventually(seconds: 3) { !errors().isEmpty }, "\(FaultyPeer.text(directory + "/connect.out"))")
        #expect(errors().first?["code"] == .string(ErrorCode.invalidUTF8.rawValue), "\(errors().map { $0.encoded() })")
    }

    @Test("case 1: SIGTERM ends connect within 100 ms while it is held back by a stopped daemon (SIGSTOP) with 60,000 pings piped in")
    func sigtermWhileDaemonStopped() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let (connect, input) = try Self.start(daemon.socketPath, directory)
        defer { close(input) }
        defer { connect.forceStop() }
        #expect(FaultyPeer.eventually { Self.messages(directory).contains { $0["class"] == .string("hello") } })

        daemon.signal(SIGSTOP)
        defer { daemon.signal(SIGCONT) }
        // As much of 60,000 pings as connect takes: it stops reading when the daemon stops.
        let pings = Array(String(repeating: #"{"cmd":"ping"}"# + "\n", count: 60_000).utf8)
        let sent = FaultyPeer.send(input, pings)
        print("flywheel connect took \(sent) of \(pings.count) bytes of pings with the daemon stopped")
        let usage = FaultyPeer.usage(of: connect.pid, over: 1)
        FaultyPeer.expectFrugal(usage, "flywheel connect held back by a stopped daemon")
        FaultyPeer.expectStopsPromptly(connect, "flywheel connect held back by a stopped daemon")
    }
}
