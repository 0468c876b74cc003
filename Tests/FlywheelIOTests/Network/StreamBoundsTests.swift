import FlywheelIO
import Glibc
import Testing

/// The client side's bounds, each driven past: the write queue of a peer that never reads, and an
/// MPD answer longer than 4,096 lines.
@Suite("Client bounds")
struct StreamBoundsTests {
    static func pair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test("a peer that never reads: the queue takes 1 MiB, then a send is ENOBUFS, not more memory")
    func writeQueueBound() {
        let (mine, theirs) = Self.pair()
        defer { close(theirs) }
        let connection = StreamConnection(adopting: mine, address: "test peer")
        let line = [UInt8](repeating: 0x78, count: 1023)
        var sent = 0
        var refused: SystemError?
        while refused == nil, sent < 10_000 {
            do { try connection.send(bytes: line) } catch { refused = error }
            sent += 1
        }
        #expect(refused?.errno == ENOBUFS, "\(String(describing: refused))")
        #expect(connection.queuedByteCount <= connection.maximumQueuedBytes)
        // The kernel's socket buffer took some, the queue the rest: about 1 MiB more, never 10 MB.
        #expect(sent < 2_000, "\(sent) lines of 1 KiB were taken")
    }

    @Test("an MPD answer of 4,097 key/value lines fails the connection once; one of 4,096 is delivered")
    func answerLinesBound() {
        for (lines, fails) in [(4096, false), (4097, true)] {
            let (mine, theirs) = Self.pair()
            let client = MPDClient(connection: StreamConnection(adopting: mine, address: "fake MPD"))
            var failures: [String] = []
            var answers = 0
            client.onFailure = { failures.append($0) }
            client.onGreeted = { client.command("status") { _ in answers += 1 } }
            var bytes = Array("OK MPD 0.23.5\n".utf8)
            for index in 0..<lines { bytes += Array("key\(index): value\n".utf8) }
            bytes += Array("OK\n".utf8)
            var offset = 0
            while offset < bytes.count, failures.isEmpty {
                let written = bytes[offset...].withUnsafeBytes { send(theirs, $0.baseAddress, min($0.count, 65_536), Int32(MSG_NOSIGNAL)) }
                if written > 0 { offset += written }
                client.ready(revents: Int16(POLLIN))
            }
            client.ready(revents: Int16(POLLIN))
            #expect(failures.count == (fails ? 1 : 0), "\(lines): \(failures)")
            #expect(answers == (fails ? 0 : 1), "\(lines)")
            if fails { #expect(failures.first?.contains("4096 lines") == true, "\(failures)") }
            close(theirs)
            client.onGreeted = {}
        }
    }
}
