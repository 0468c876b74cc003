import Glibc
import Testing

/// `flywheel midi` as a real child process writing to a port that takes no bytes: a FIFO that
/// nobody reads, already full (issue 33, case 1; a real 31.25 kbaud port drains only about 3 KB/s).
@Suite("flywheel midi against a port that takes no bytes (issue 33)", .serialized, .timeLimit(.minutes(1)))
struct MIDIFaultyPeerTests {
    /// fcntl's F_SETPIPE_SZ (Linux; not exported by Swift's Glibc module).
    static let setPipeSize: Int32 = 1031

    @Test("case 1: SIGTERM ends flywheel midi within 100 ms while its port takes no bytes and the daemon sends many events; meanwhile near zero CPU")
    func sigtermWhilePortFull() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let fifo = directory + "/midi"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The test holds the FIFO open for reading and writing, so that the bridge's open does not
        // wait for a reader; it never reads. It fills the FIFO (made one page small) itself.
        let holder = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        #expect(holder >= 0)
        defer { close(holder) }
        _ = fcntl(holder, Self.setPipeSize, 4096)
        let page = [UInt8](repeating: 0xFE, count: 512)
        var filled = 0
        while true {
            let n = page.withUnsafeBytes { write(holder, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            filled += n
        }
        #expect(filled > 0 && errno == EAGAIN, "filled \(filled) bytes, errno \(errno)")

        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["midi", "--socket", daemon.socketPath, "--device", fifo, "--clock"], stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("connected to flywheeld") },
                "\(FaultyPeer.text(directory + "/bridge.err"))")
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        for bpm in 100..<150 { FaultyPeer.set(client, #"{"cmd":"set","control":"tempo","bpm":\#(bpm)}"#) }
        // A bridge that writes with blocking writes now sleeps in one (not asserted: one that does
        // not block never does, and this wait then ends at its bound).
        let blocked = FaultyPeer.eventually(seconds: 1.5) { FaultyPeer.blockedWriting(bridge.pid) }
        print("flywheel midi \(blocked ? "sleeps" : "does not sleep") in a write to the full FIFO")
        let usage = FaultyPeer.usage(of: bridge.pid, over: 1)
        FaultyPeer.expectFrugal(usage, "flywheel midi with a full port")
        #expect(!bridge.hasExited, "the bridge ended by itself (status \(bridge.status ?? -1)): \(FaultyPeer.text(directory + "/bridge.err"))")
        FaultyPeer.expectStopsPromptly(bridge, "flywheel midi with a full port")
    }
}
