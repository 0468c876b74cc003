import FlywheelCore
import Glibc
import Testing

/// Client churn against a real flywheeld: its own descriptors, counted in /proc, come back to where
/// they were. (A client's faulty lines: ClientLinesTests, in process.)
@Suite("flywheeld under client churn", .serialized)
struct DaemonFaultTests {
    static func openDescriptors(_ pid: pid_t) -> Int { RepositoryPaths.list("/proc/\(pid)/fd").count }

    static func pong(_ client: TestClient) -> Bool {
        client.send("{\"cmd\":\"ping\"}")
        return client.next(where: { $0["class"] != .string("hello") })?["class"] == .string("pong")
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
