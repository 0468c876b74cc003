import FlywheelCore
import Glibc
import Testing

/// Client faults against a real flywheeld: every one gets a clear answer or a clean close, and the
/// daemon and its other clients carry on.
@Suite("flywheeld under client faults", .serialized)
struct DaemonFaultTests {
    static func openDescriptors(_ pid: pid_t) -> Int { RepositoryPaths.list("/proc/\(pid)/fd").count }

    static func pong(_ client: TestClient) -> Bool {
        client.send("{\"cmd\":\"ping\"}")
        return client.next(where: { $0["class"] != .string("hello") })?["class"] == .string("pong")
    }

    @Test("disconnecting mid-line, trickling a line byte by byte, a 1 MB line and invalid UTF-8")
    func lines() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let witness = try TestClient(daemon.socketPath)
        _ = witness.next()

        // Half a command, then gone.
        do {
            let quitter = try TestClient(daemon.socketPath)
            quitter.send(Array("{\"cmd\":\"pi".utf8))
        }
        #expect(Self.pong(witness))

        // A line trickled a byte at a time while another client is served between the bytes.
        let trickler = try TestClient(daemon.socketPath)
        _ = trickler.next()
        for byte in "{\"cmd\":\"ping\"}".utf8 {
            trickler.send([byte])
            #expect(Self.pong(witness))
        }
        trickler.send([0x0A])
        #expect(trickler.next()?["class"] == .string("pong"))

        // Invalid UTF-8 is an error reply; the connection carries on.
        trickler.send([0x7B, 0xFF, 0xFE, 0x7D, 0x0A])
        let error = trickler.next()
        #expect(error?["class"] == .string("error"))
        #expect(Self.pong(trickler))

        // A 1 MB line without a newline: an error, the connection closed, nobody else affected.
        let flooder = try TestClient(daemon.socketPath)
        _ = flooder.next()
        flooder.send(Array(repeating: UInt8(ascii: "a"), count: 1 << 20))
        #expect(flooder.next()?["code"] == .string("line-too-long"))
        #expect(flooder.next() == nil)
        #expect(Self.pong(witness))
    }

    @Test("10,000 connects and disconnects leave no descriptor behind")
    func churn() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let witness = try TestClient(daemon.socketPath)
        _ = witness.next()
        #expect(Self.pong(witness))
        let before = Self.openDescriptors(daemon.pid)
        for index in 0..<10_000 {
            let client = try TestClient(daemon.socketPath)
            if index % 2 == 0 { client.send("{\"cmd\":\"ping\"}") }  // some leave with a reply unread
        }
        // Each round trip lets the daemon finish a wakeup's worth of accepts and hang-ups; it must
        // come back to where it was within a few.
        var after = -1
        for _ in 0..<50 where after != before {
            #expect(Self.pong(witness))
            after = Self.openDescriptors(daemon.pid)
        }
        #expect(after == before)
    }
}
