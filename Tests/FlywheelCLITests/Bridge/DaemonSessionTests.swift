@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// `flywheel watch` and `flywheel connect` as real child processes in front of a real flywheeld that
/// is stopped and started again on the same socket.
@Suite("flywheel watch and connect outlive a daemon restart", .serialized)
struct DaemonSessionTests {
    typealias Harness = MPDBridgeTests
    static let scenario = "Tests/FlywheelCLITests/OSC/osc-again.sim"

    static func temporaryDirectory() -> String {
        var template = Array("/tmp/flywheel-session-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func lines(_ path: String) -> [String] {
        (RepositoryPaths.read(path) ?? "").split(separator: "\n").map(String.init)
    }

    @Test("flywheel watch says the daemon went away, reconnects to the restarted one and keeps printing its events; SIGTERM ends it cleanly")
    func watchReconnects() throws {
        let directory = Self.temporaryDirectory()
        let socket = directory + "/flywheel.sock"
        var daemon = try DaemonProcess(
            ["--simulate", RepositoryPaths.path(Self.scenario), "--hold-until-clients", "1", "--frames", "0"], socketPath: socket)
        let watch = try Harness.Background(
            [ChildProcess.product("flywheel"), "watch", "--socket", socket], stdoutPath: directory + "/watch.out", stderrPath: directory + "/watch.err")
        defer { watch.stop() }
        func printed() -> [String] { Self.lines(directory + "/watch.out") }
        func tempoLines() -> Int { printed().filter { $0.contains("  tempo  ") }.count }
        // The scenario turns two detents: a tempo line for each, then the settle.
        #expect(Harness.eventually { printed().contains { $0.contains("tempo") && $0.contains("settled") } }, "\(printed())")
        let before = tempoLines()
        #expect(before >= 2)

        _ = daemon.stop()
        #expect(Harness.eventually { (RepositoryPaths.read(directory + "/watch.err") ?? "").contains("retrying in") })
        #expect(!watch.hasExited, "watch ended with the daemon: \(RepositoryPaths.read(directory + "/watch.err") ?? "")")
        daemon = try DaemonProcess(
            ["--simulate", RepositoryPaths.path(Self.scenario), "--hold-until-clients", "1", "--frames", "0"], socketPath: socket)
        defer { _ = daemon.stop() }
        #expect(Harness.eventually(seconds: 20) { tempoLines() >= 2 * before }, "\(printed())")
        #expect(printed().filter { $0.hasPrefix("connected to flywheeld") }.count == 2, "\(printed())")
        #expect(watch.stop() == 0)
        let log = RepositoryPaths.read(directory + "/watch.err") ?? ""
        #expect(log.contains("flywheel watch: flywheeld at \(socket): flywheeld closed the connection; retrying in 0.25 s."), "\(log)")
        #expect(log.contains("flywheel watch: reconnected to flywheeld at \(socket)."), "\(log)")
    }

    @Test("flywheel connect carries commands in and events out, both ways again after a restart, and ends with its input")
    func connectBothWays() throws {
        let directory = Self.temporaryDirectory()
        let socket = directory + "/flywheel.sock"
        var daemon = try DaemonProcess([], socketPath: socket)
        // Its standard input is a socket pair's end: the test writes with MSG_NOSIGNAL (a bridge that
        // died is a failed expectation, not a SIGPIPE), and its own end is close-on-exec, so that the
        // daemons started below do not hold the input open.
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        let connect = try Harness.Background(
            ["/bin/bash", "-c", #"exec "$0" connect --socket "$1" <&"$2""#, ChildProcess.product("flywheel"), socket, String(pair[1])],
            stdoutPath: directory + "/connect.out", stderrPath: directory + "/connect.err")
        close(pair[1])
        defer { connect.stop() }
        let input = pair[0]
        func write(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            #expect(bytes.withUnsafeBytes { send(input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count)
        }
        func events() -> [JSONValue] { Self.lines(directory + "/connect.out").compactMap { try? JSONParser.parse(Array($0.utf8)) } }
        func tempoSet(_ bpm: Int) -> Bool {
            events().contains { $0["class"] == .string("tempo") && $0["phase"] == .string("set") && $0["bpm"]?.doubleValue == Double(bpm) }
        }

        write(#"{"cmd":"set","control":"tempo","bpm":97}"#)
        #expect(Harness.eventually { tempoSet(97) }, "\(Self.lines(directory + "/connect.out"))")

        _ = daemon.stop()
        daemon = try DaemonProcess([], socketPath: socket)
        defer { _ = daemon.stop() }
        #expect(Harness.eventually(seconds: 20) { (RepositoryPaths.read(directory + "/connect.err") ?? "").contains("reconnected") })
        write(#"{"cmd":"set","control":"tempo","bpm":98}"#)
        #expect(Harness.eventually { tempoSet(98) }, "\(Self.lines(directory + "/connect.out"))")
        #expect(events().filter { $0["class"] == .string("hello") }.count == 2)

        shutdown(input, Int32(SHUT_WR))
        #expect(Harness.eventually { connect.hasExited })
        #expect(connect.stop() == 0, "\(RepositoryPaths.read(directory + "/connect.err") ?? "")")
        close(input)
    }
}
