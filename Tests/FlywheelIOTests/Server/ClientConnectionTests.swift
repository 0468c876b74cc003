import FlywheelCore
import Glibc
import Testing
@testable import FlywheelIO

/// A client's queue: frames coalesce latest-wins, discrete messages are bounded and never dropped.
@Suite("Client queues")
struct ClientConnectionTests {
    static func pair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var small: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        return (fds[0], fds[1])
    }

    static func frame(_ control: Control, _ value: Double, _ t: Int64) -> ServerMessage {
        ServerMessage(ControlEvent.frame(control: control, value: value, offset: value, velocity: 0, timeNanoseconds: t))
    }

    @Test("while the peer does not read, frames of one control coalesce to the newest and seq shows the gap")
    func coalescing() throws {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        // Fill the socket so nothing more can be written.
        let filler = ServerMessage(.error(.unavailable, message: String(repeating: "x", count: 2000)), at: 0)
        while client.queue.isEmpty || client.flush() == .done { #expect(client.enqueue(filler, limit: 10_000)) }
        let discreteBefore = client.discreteQueued
        for i in 0..<100 { #expect(client.enqueue(Self.frame(.tempo, Double(i), Int64(i)), limit: 10_000)) }
        for i in 0..<50 { #expect(client.enqueue(Self.frame(.scrub, Double(i), Int64(i)), limit: 10_000)) }
        let frames = client.queue.filter { $0.frameKey != nil }
        #expect(frames.count == 2)
        #expect(String(decoding: frames[0].bytes, as: UTF8.self).contains("\"value\":99"))
        #expect(String(decoding: frames[1].bytes, as: UTF8.self).contains("\"value\":49"))
        #expect(client.discreteQueued == discreteBefore)
        #expect(client.seq > UInt64(150))
    }

    @Test("discrete messages are refused past the limit instead of dropped")
    func bounded() {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        let message = ServerMessage(ControlEvent.tempo(bpm: 120, value: 100, phase: .moved, timeNanoseconds: 0))
        var accepted = 0
        while client.enqueue(message, limit: 8) { accepted += 1 }
        #expect(accepted == 8)
        #expect(client.discreteQueued == 8)
        // Once the peer reads, everything queued is delivered in order.
        #expect(client.flush() == .done)
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(peer, &buffer, buffer.count)
        let lines = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines.map { $0.contains("\"seq\":") }.allSatisfy { $0 })
    }
}
