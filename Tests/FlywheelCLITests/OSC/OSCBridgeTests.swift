@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// `flywheel osc` between a real flywheeld and a real OSC receiver from Debian (liblo's `oscdump`).
@Suite("flywheel osc against real OSC receivers", .serialized)
struct OSCBridgeTests {
    typealias Harness = MPDBridgeTests
    static let oscdumpPath = "/usr/bin/oscdump"

    @Test("OSC 1.0 encoding: padded address and type tags, big-endian float and int, padded strings")
    func encoding() {
        // Built part by part: one long concatenation is more than Swift 6.0's type checker will solve.
        func padded(_ text: String, zeros: Int) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0, count: zeros) }
        var button: [UInt8] = padded("/flywheel/button", zeros: 4)
        button += padded(",is", zeros: 1)
        button += [0, 0, 1, 0]
        button += padded("tap", zeros: 1)
        #expect(OSCMessage("/flywheel/button", [.int(256), .string("tap")]).bytes == button)
        var float: [UInt8] = padded("/a", zeros: 2)
        float += padded(",f", zeros: 2)
        float += [0x42, 0xF0, 0, 0]
        #expect(OSCMessage("/a", [.float(120)]).bytes == float)
        let empty: [UInt8] = padded("/abc", zeros: 4) + padded(",", zeros: 3)
        #expect(OSCMessage("/abc", []).bytes == empty)
    }

    /// A UDP port (or with `stream` a TCP port) nothing listens on now (the kernel's choice).
    static func freePort(stream: Bool = false) -> Int {
        let fd = socket(AF_INET, Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a UDP socket is bound to `port` (the receiver is ready).
    static func listening(udpPort port: Int) -> Bool {
        let hex = String(port, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return ["/proc/net/udp", "/proc/net/udp6"].contains { (RepositoryPaths.read($0) ?? "").contains(":\(padded) ") }
    }

    /// One OSC message as oscdump prints it: `TIMETAG /path types arg…` → path, types, arguments.
    static func parseDump(_ line: Substring) -> (path: String, types: String, arguments: [String])? {
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count >= 3 else { return nil }
        return (fields[1], fields[2], fields.dropFirst(3).map { $0.hasPrefix("\"") ? String($0.dropFirst().dropLast()) : $0 })
    }

    /// What the generic preset must send for an event the test's client received: path, types, arguments.
    static func expected(_ event: JSONValue) -> (String, String, [String])? {
        func number(_ key: String) -> String { String(event[key]?.doubleValue ?? .nan) }
        switch event["class"]?.stringValue {
        case "tempo": return ("/flywheel/tempo", "f", [number("bpm")])
        case "scrub": return ("/flywheel/scrub", "fs", [number("position"), event["phase"]?.stringValue ?? ""])
        case "volume": return ("/flywheel/volume", "f", [number("volume")])
        case "mode": return ("/flywheel/mode", "s", [event["mode"]?.stringValue ?? ""])
        case "button": return ("/flywheel/button", "is", [String(Int(event["code"]?.doubleValue ?? -1)), event["action"]?.stringValue ?? ""])
        default: return nil
        }
    }

    /// Same path, types and strings; numbers equal to float32 precision.
    static func matches(_ got: (path: String, types: String, arguments: [String]), _ want: (String, String, [String])) -> Bool {
        guard got.path == want.0, got.types == want.1, got.arguments.count == want.2.count else { return false }
        return zip(got.arguments, want.2).allSatisfy { a, b in
            if let x = Double(a), let y = Double(b) { return abs(x - y) <= max(1e-6, abs(y) * 1e-6) }
            return a == b
        }
    }

    @Test("every event reaches oscdump as its OSC message, in order; the bridge reconnects to a restarted daemon and stops cleanly",
          .enabled(if: access(oscdumpPath, X_OK) == 0, "oscdump (liblo-tools) is not installed (Tests/scripts/test.sh installs it)"))
    func oscdump() throws {
        var template = Array("/tmp/flywheel-osc-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let port = Self.freePort()
        let receiver = try Harness.Background([Self.oscdumpPath, "-L", String(port)], stdoutPath: directory + "/dump.txt")
        defer { receiver.stop() }
        #expect(Harness.eventually { Self.listening(udpPort: port) })

        var daemon = try DaemonProcess([
            "--simulate", RepositoryPaths.path("Tests/FlywheelCLITests/OSC/osc-knob.sim"), "--hold-until-clients", "2", "--frames", "0",
        ], socketPath: directory + "/flywheel.sock")
        let watcher = try TestClient(daemon.socketPath)
        watcher.send(#"{"cmd":"set","control":"scrub","duration":214,"position":10}"#)
        let bridge = try Harness.Background(
            [ChildProcess.product("flywheel"), "osc", "--socket", daemon.socketPath, "--to", "127.0.0.1:\(port)"],
            stderrPath: directory + "/bridge.err")
        defer { bridge.stop() }

        var events: [JSONValue] = []
        while let event = watcher.next() {
            guard Self.expected(event) != nil else { continue }
            events.append(event)
            if event["phase"] == .string("committed") { break }
        }
        let classes = Set(events.compactMap { $0["class"]?.stringValue })
        #expect(classes == ["tempo", "button", "mode", "scrub"], "\(classes)")
        func dumped() -> [(path: String, types: String, arguments: [String])] {
            (RepositoryPaths.read(directory + "/dump.txt") ?? "").split(separator: "\n").compactMap(Self.parseDump)
        }
        #expect(Harness.eventually { dumped().count >= events.count })
        let got = dumped()
        #expect(got.count == events.count)
        for (index, pair) in zip(got, events).enumerated() {
            let want = Self.expected(pair.1)!
            #expect(Self.matches(pair.0, want), "message \(index): got \(pair.0), want \(want)")
        }

        // The daemon restarts on the same socket: the bridge reconnects and carries on.
        _ = daemon.stop()
        daemon = try DaemonProcess(
            ["--simulate", RepositoryPaths.path("Tests/FlywheelCLITests/OSC/osc-again.sim"), "--hold-until-clients", "1", "--frames", "0"],
            socketPath: directory + "/flywheel.sock")
        defer { _ = daemon.stop() }
        #expect(Harness.eventually(seconds: 20) { dumped().filter { $0.path == "/flywheel/tempo" }.count >= events.filter { $0["class"] == .string("tempo") }.count + 2 })
        #expect(bridge.stop() == 0)
        let log = RepositoryPaths.read(directory + "/bridge.err") ?? ""
        #expect(log.components(separatedBy: "connected to flywheeld").count - 1 == 2, "\(log)")
        #expect(log.contains("retrying in"), "\(log)")
        #expect(log.contains("stopping; \(dumped().count) messages sent."), "\(log)")
    }
}
