@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// `flywheel osc --preset klick` driving the klick metronome, running on a JACK server with the
/// dummy backend; klick is asked for its tempo back over OSC (`/klick/simple/query`).
@Suite("flywheel osc drives klick", .serialized)
struct KlickTests {
    typealias Harness = MPDBridgeTests
    static let klickPath = "/usr/bin/klick", jackdPath = "/usr/bin/jackd"
    static var available: Bool { access(klickPath, X_OK) == 0 && access(jackdPath, X_OK) == 0 }

    /// Asks klick at `port` for its state and returns the `/klick/simple/tempo` it answers, or nil.
    static func klickTempo(port: Int) -> Float? {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let query = OSCMessage("/klick/simple/query", []).bytes
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, query, query.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard sent == query.count else { return nil }
        var packet = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = recv(fd, &packet, packet.count, 0)
            guard n > 0 else { return nil }
            let prefix = Array("/klick/simple/tempo".utf8) + [0] + Array(",f".utf8) + [0, 0]  // 19 characters and a NUL: aligned
            if n == prefix.count + 4, Array(packet[0..<prefix.count]) == Array(prefix) {
                let raw = packet[prefix.count..<n].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return Float(bitPattern: raw)
            }
        }
    }

    @Test("the knob's tempo reaches klick: klick answers /klick/simple/query with the tempo flywheeld settled on",
          .enabled(if: available, "klick and jackd2 are not installed (Tests/scripts/test.sh installs them)"))
    func klick() throws {
        var template = Array("/tmp/flywheel-klick-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        // A server name of its own: a JACK server killed earlier may have left its name behind
        // ("server already active"), and process ids are reused.
        let server = "JACK_DEFAULT_SERVER=flywheel-test-\(getpid())-\(Int(MonotonicClockForTests.now() * 1e6))"
        let jack = try Harness.Background(["/usr/bin/env", server, Self.jackdPath, "-r", "-d", "dummy", "-r", "48000", "-p", "1024"],
                                          stderrPath: directory + "/jackd.err")
        defer { jack.stop() }
        // klick needs the JACK server up: started again until it stays and listens. It must not
        // start a server of its own (JACK_NO_START_SERVER): one it starts takes the name first and
        // the test's dummy server then finds it "already active".
        let port = OSCBridgeTests.freePort()
        var klick = try Harness.Background(["/usr/bin/env", server, "JACK_NO_START_SERVER=1", Self.klickPath, "-o", String(port)], stderrPath: directory + "/klick.err")
        defer { klick.stop() }
        var ready = false
        for _ in 0..<60 where !ready {
            ready = Harness.eventually(seconds: 1) { klick.hasExited || OSCBridgeTests.listening(udpPort: port) } && !klick.hasExited
            if klick.hasExited { klick = try Harness.Background(["/usr/bin/env", server, "JACK_NO_START_SERVER=1", Self.klickPath, "-o", String(port)], stderrPath: directory + "/klick.err") }
        }
        try #require(ready, "klick did not start: \(RepositoryPaths.read(directory + "/klick.err") ?? "")")

        let daemon = try DaemonProcess([
            "--simulate", RepositoryPaths.path("Tests/FlywheelCLITests/OSC/osc-knob.sim"), "--hold-until-clients", "2", "--frames", "0",
        ])
        defer { _ = daemon.stop() }
        let watcher = try TestClient(daemon.socketPath)
        let bridge = try Harness.Background(
            [ChildProcess.product("flywheel"), "osc", "--socket", daemon.socketPath, "--to", "127.0.0.1:\(port)", "--preset", "klick"],
            stderrPath: directory + "/bridge.err")
        defer { bridge.stop() }
        let settled = try #require(watcher.next(where: { $0["class"] == .string("tempo") && $0["phase"] == .string("settled") }))
        let bpm = try #require(settled["bpm"]?.doubleValue)
        #expect(bpm != 120, "the knob moved the tempo")
        #expect(Harness.eventually { Self.klickTempo(port: port) == Float(bpm) }, "klick at \(Self.klickTempo(port: port).map { "\($0)" } ?? "no answer"), knob at \(bpm)")
        #expect(bridge.stop() == 0)
    }
}
