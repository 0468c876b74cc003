import FlywheelCore
import Glibc
import Testing

/// `flywheel osc` as a real child process from a real flywheeld to a UDP port where nothing listens,
/// then a receiver the test binds, and to a name that does not resolve (issue 33, case 6 and the DNS
/// item of case 8). Each event is a client's `set` of the tempo, one `/flywheel/tempo` message.
@Suite("flywheel osc against a missing receiver (issue 33)", .serialized, .timeLimit(.minutes(1)))
struct OSCFaultyPeerTests {
    static func start(_ directory: String, to target: String) throws -> (DaemonProcess, Child) {
        let daemon = try DaemonProcess([])
        let bridge = try Child(flywheel: ["osc", "--socket", daemon.socketPath, "--to", target], stderrPath: directory + "/bridge.err")
        return (daemon, bridge)
    }

    static func setTempo(_ client: TestClient, _ bpm: Int) {
        #expect(FaultyPeer.set(client, #"{"cmd":"set","control":"tempo","bpm":\#(bpm)}"#)?["class"] == .string("state"))
    }

    /// A UDP socket bound to 127.0.0.1:`port`, the receiver.
    static func receiver(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0, "binding 127.0.0.1:\(port): errno \(errno)")
        return fd
    }

    /// The tempo of each `/flywheel/tempo ,f BPM` datagram waiting on `fd` (its last 4 bytes, a big-endian float).
    static func received(_ fd: Int32) -> [Int] {
        var tempos: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 1500)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n >= 4 else { return tempos }
            let bits = buffer[n - 4..<n].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            tempos.append(Int(Float(bitPattern: bits).rounded()))
        }
    }

    @Test("case 6: 40 events with nothing listening print one 'nothing is listening' line and no 'listening again'")
    func nothingListening() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let port = OSCBridgeTests.freePort()
        let (daemon, bridge) = try Self.start(directory, to: "127.0.0.1:\(port)")
        defer { _ = daemon.stop() }
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("connected to flywheeld") })

        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        let before = FaultyPeer.udpNoPorts() ?? 0
        for bpm in 100..<140 { Self.setTempo(client, bpm) }
        // Every event's datagram has reached the empty port (the kernel counts them): the bridge
        // has handled all 40. Not asserted: a bridge that fails every other send sends only 20.
        let handled = FaultyPeer.eventually(seconds: 3) { (FaultyPeer.udpNoPorts() ?? 0) - before >= 40 }
        let log = FaultyPeer.text(directory + "/bridge.err")
        let missing = log.components(separatedBy: "nothing is listening").count - 1
        let again = log.components(separatedBy: "listening again").count - 1
        #expect(missing == 1 && again == 0,
                "\(missing) 'nothing is listening' and \(again) 'listening again' lines for 40 events (\((FaultyPeer.udpNoPorts() ?? 0) - before) datagrams reached the port\(handled ? "" : ", fewer than 40"))")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel osc")
    }

    @Test("case 6: when a receiver appears after nothing listened, the first datagram sent after it is there arrives, and every one after it")
    func receiverAppears() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let port = OSCBridgeTests.freePort()
        let (daemon, bridge) = try Self.start(directory, to: "127.0.0.1:\(port)")
        defer { _ = daemon.stop() }
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("connected to flywheeld") })

        // One event while nothing listens: its datagram reaches the empty port (the kernel counts it).
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        let before = FaultyPeer.udpNoPorts() ?? 0
        Self.setTempo(client, 100)
        #expect(FaultyPeer.eventually(seconds: 3) { (FaultyPeer.udpNoPorts() ?? 0) > before }, "the bridge sent nothing for the first event")

        let receiver = Self.receiver(port: port)
        defer { close(receiver) }
        var got: [Int] = []
        for bpm in [111, 112, 113] { Self.setTempo(client, bpm) }
        #expect(FaultyPeer.eventually(seconds: 3) { got += Self.received(receiver); return got.count >= 3 },
                "the receiver got \(got) for 111, 112, 113; \(FaultyPeer.text(directory + "/bridge.err"))")
        #expect(got == [111, 112, 113], "\(got)")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel osc")
    }

    @Test("case 8: a --to name that does not resolve is reported as a name resolution failure, not 'No route to host'")
    func unresolvableName() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let (daemon, bridge) = try Self.start(directory, to: "nosuchhost.invalid:9000")
        defer { _ = daemon.stop() }
        defer { bridge.forceStop() }

        // What this machine's resolver says about the name (no network needed: .invalid never resolves).
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo("nosuchhost.invalid", "9000", &hints, &list)
        if let list { freeaddrinfo(list) }
        #expect(code != 0)
        let reason = String(cString: gai_strerror(code))

        #expect(FaultyPeer.eventually(seconds: 3) { FaultyPeer.text(directory + "/bridge.err").contains("nosuchhost.invalid") },
                "\(FaultyPeer.text(directory + "/bridge.err"))")
        let log = FaultyPeer.text(directory + "/bridge.err")
        #expect(!log.contains("No route to host") && !log.contains("errno 113"), "\(log)")
        #expect(log.contains(reason) || log.lowercased().contains("resolv"), "the log names neither '\(reason)' nor resolution: \(log)")
    }
}
