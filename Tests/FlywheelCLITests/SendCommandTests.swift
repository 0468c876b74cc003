import FlywheelCore
import Glibc
import Testing

/// `flywheel send` prints the answer to its own command (issue 47): not an event that happened to
/// come first, however fast flywheeld is sending them.
@Suite("flywheel send answers its own command")
struct SendCommandTests {
    @Test("while another client's sets broadcast tempo events to everyone: 60 pings print 60 pongs, a get and a set their state, a bad line its error and exit 1")
    func ownAnswer() throws {
        let daemon = try DaemonProcess(["--simulate", "demo", "--loop", "--quiet"])
        defer { _ = daemon.stop() }
        // Another client's sets keep the daemon broadcasting tempo events to everyone, the sender
        // included: 40 waiting to be served when each ping is sent.
        let other = try TestClient(daemon.socketPath)
        _ = other.next()
        var time = timeval(tv_sec: 0, tv_usec: 1)
        setsockopt(other.fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        for index in 0..<60 {
            for bpm in 0..<40 { other.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(60 + (index * 40 + bpm) % 200)}") }
            while other.next() != nil {}  // what has come, without waiting
            let run = ToolRun.run(["send", "--socket", daemon.socketPath, "{\"cmd\":\"ping\"}"])
            #expect(run.status == 0 && run.out.hasPrefix("{\"class\":\"pong\""), "ping \(index): \(run.out)")
        }
        let get = ToolRun.run(["send", "--socket", daemon.socketPath, "{\"cmd\":\"get\"}"])
        #expect(get.status == 0 && get.out.hasPrefix("{\"class\":\"state\""), "\(get.out)")
        let set = ToolRun.run(["send", "--socket", daemon.socketPath, "{\"cmd\":\"set\",\"control\":\"volume\",\"volume\":40}"])
        #expect(set.status == 0 && set.out.hasPrefix("{\"class\":\"state\"") && set.out.split(separator: "\n").count == 1, "\(set.out)")
        let bad = ToolRun.run(["send", "--socket", daemon.socketPath, "not json"])
        #expect(bad.status == 1 && bad.out.hasPrefix("{\"class\":\"error\"") && bad.out.contains("invalid-json"), "\(bad.status) \(bad.out)")
        let watch = ToolRun.run(["send", "--socket", daemon.socketPath, "{\"cmd\":\"watch\",\"classes\":[\"tempo\"]}"])
        #expect(watch.status == 0 && watch.out.hasPrefix("{\"class\":\"watch\""), "\(watch.out)")
    }
}
