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
        let frames = client.queue.filter { $0.key != nil }
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

    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            precondition(n > 0)
            offset += n
        }
    }

    /// Reads until `count` lines have come (or the reader says something else).
    static func lines(from client: ClientConnection, count: Int) -> ClientConnection.ReadResult {
        var lines: [[UInt8]] = []
        while lines.count < count {
            guard case .lines(let more) = client.read() else { return client.read() }
            lines += more
        }
        return .lines(lines)
    }

    @Test("a CR and an LF in separate writes after a line of exactly 64 KiB: the line, not line-too-long")
    func crlfAtTheLimit() {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        var big: Int32 = 1 << 20
        setsockopt(peer, SOL_SOCKET, SO_SNDBUF, &big, socklen_t(MemoryLayout<Int32>.size))
        let client = ClientConnection(fd: server)
        let line = [UInt8](repeating: 0x61, count: ClientConnection.maximumLine)
        Self.write(peer, line + [0x0D])
        var results: [ClientConnection.ReadResult] = []
        // Read everything of the line and its CR.
        for _ in 0..<(line.count / ClientConnection.readBudget + 2) { results.append(client.read()) }
        #expect(!results.contains(.tooLong))
        Self.write(peer, [0x0A])
        #expect(client.read() == .lines([line]))
        // One byte more is too long, CR or not.
        Self.write(peer, line + [0x61, 0x0D])
        results = []
        for _ in 0..<(line.count / ClientConnection.readBudget + 2) { results.append(client.read()) }
        #expect(results.contains(.tooLong))
    }

    @Test("one read takes at most the read budget: a client sending 1 MiB of blank lines gets a turn, not the loop, and its blank lines cost no line each")
    func readBudget() {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        var big: Int32 = 4 << 20
        setsockopt(peer, SOL_SOCKET, SO_SNDBUFFORCE, &big, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(peer, F_SETFL, fcntl(peer, F_GETFL) | O_NONBLOCK)
        let blank = [UInt8](repeating: 0x0A, count: 1 << 20)
        let written = blank.withUnsafeBytes { Glibc.write(peer, $0.baseAddress, $0.count) }
        #expect(written > ClientConnection.readBudget)
        let client = ClientConnection(fd: server)
        guard case .lines(let lines) = client.read() else {
            Issue.record("expected lines")
            return
        }
        #expect(lines.isEmpty)
        var pending = 0
        #expect(ioctl(server, UInt(FIONREAD), &pending) == 0)
        #expect(pending == written - ClientConnection.readBudget)
    }

    @Test("lines split in pieces are put back together, CRLF and LF alike")
    func splitting() {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        Self.write(peer, Array("{\"cmd\":\"pi".utf8))
        #expect(client.read() == .lines([]))
        Self.write(peer, Array("ng\"}\r\n\n{}\nx".utf8))
        #expect(client.read() == .lines([Array("{\"cmd\":\"ping\"}".utf8), Array("{}".utf8)]))
        Self.write(peer, Array("y\n".utf8))
        #expect(client.read() == .lines([Array("xy".utf8)]))
    }

    @Test("a client that shut its sending side is read as closed but can still be written to")
    func halfClose() {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        shutdown(peer, Int32(SHUT_WR))
        #expect(client.read() == .closed)
        #expect(client.readClosed)
        #expect(client.enqueue(ServerMessage(ControlEvent.tempo(bpm: 90, value: 70, phase: .moved, timeNanoseconds: 0)), limit: 8))
        #expect(client.flush() == .done)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(peer, &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(0, n)], as: UTF8.self).contains("\"bpm\":90"))
    }

    @Test("3,000 coalescing state messages to a client that does not read take one slot, the newest")
    func coalescedState() {
        let (server, peer) = Self.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        let filler = ServerMessage(.error(.unavailable, message: String(repeating: "x", count: 2000)), at: 0)
        while client.queue.isEmpty || client.flush() == .done { #expect(client.enqueue(filler, limit: 10_000)) }
        let before = client.discreteQueued
        for bpm in 0..<3000 {
            let message = ServerMessage(ControlEvent.tempo(bpm: BPM(integerLiteral: bpm), value: bpm, phase: .set, timeNanoseconds: 0)).coalescing(by: "command:tempo")
            #expect(client.enqueue(message, limit: before + 4))
        }
        #expect(client.discreteQueued == before + 1)
        #expect(String(decoding: client.queue.last!.bytes, as: UTF8.self).contains("\"bpm\":2999"))
    }
}

/// What the splitter drops and what a partial write leaves: the wire bytes are exactly the
/// message with this client's seq, however the socket cuts them.
@Suite("Client lines and writes")
struct ClientConnectionWireTests {
    @Test("blank keep-alives (spaces, tabs, CRLF) are dropped as they are split, across reads; a CR inside a line keeps it")
    func blankLines() {
        let (server, peer) = ClientConnectionTests.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        ClientConnectionTests.write(peer, Array(" \t".utf8))
        #expect(client.read() == .lines([]))
        ClientConnectionTests.write(peer, Array("\r\n\n \r\n\r\r\n{}\n\t".utf8))
        #expect(client.read() == .lines([[0x0D], Array("{}".utf8)]))
        ClientConnectionTests.write(peer, Array("x\n".utf8))
        #expect(client.read() == .lines([Array("\tx".utf8)]))
    }

    /// The lines a stream holds, by the protocol's definition: split at LF, one CR before it
    /// dropped, lines of only spaces and tabs dropped (the line still arriving is not one yet).
    static func referenceLines(_ stream: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        for byte in stream {
            guard byte == 0x0A else {
                line.append(byte)
                continue
            }
            if line.last == 0x0D { line.removeLast() }
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.append(line) }
            line = []
        }
        return lines
    }

    @Test("2,000 streams of letters, spaces, tabs, CRs and LFs cut at random places split as the protocol says")
    func splittingMatchesTheDefinition() {
        let (server, peer) = ClientConnectionTests.pair()
        defer { close(server); close(peer) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet: [UInt8] = [0x61, 0x20, 0x09, 0x0D, 0x0A]
        for round in 0..<2_000 {
            let client = ClientConnection(fd: server)
            var stream = (0..<next(60)).map { _ in alphabet[next(alphabet.count)] }
            stream.append(0x0A)
            var received: [[UInt8]] = []
            var sent = 0
            while sent < stream.count {
                let piece = Array(stream[sent..<min(stream.count, sent + 1 + next(8))])
                ClientConnectionTests.write(peer, piece)
                sent += piece.count
                guard case .lines(let lines) = client.read() else {
                    Issue.record("round \(round): not lines")
                    return
                }
                received += lines
            }
            #expect(received == Self.referenceLines(stream), "round \(round): \(stream)")
        }
    }

    @Test("messages written in pieces through a small socket arrive whole, seq digits and all")
    func piecesArriveWhole() {
        let (server, peer) = ClientConnectionTests.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        client.seq = 99_990  // the digits grow from five to six on the way
        var expected: [UInt8] = []
        for index in 0..<40 {
            let message = ServerMessage(.error(.unavailable, message: String(repeating: "x", count: 100 + index * 97)), at: Int64(index))
            #expect(client.enqueue(message, limit: 100))
            expected += message.bytes(seq: client.seq)
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1000)  // reading in small pieces: many partial writes
        while received.count < expected.count {
            _ = client.flush()
            let n = recv(peer, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { received += buffer[0..<n] }
        }
        #expect(client.flush() == .done)
        #expect(received == expected)
        #expect(String(decoding: received, as: UTF8.self).contains("\"seq\":100029,"))
    }

    @Test("a broadcast's one test (sendsAtOnce) is true exactly when the client wants the class, nothing waits and it is neither closing nor dropped")
    func atOnceMask() {
        let (server, peer) = ClientConnectionTests.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        let queued = ServerMessage(.error(.unavailable, message: "queued"), at: 0)
        let subscriptions = [Subscription(), Subscription(classes: [.tempo], frames: true), Subscription(classes: [], frames: false)]
        for subscription in subscriptions {
            for dropped in [false, true] {
                for closing in [false, true] {
                    for waiting in [false, true] {
                        // Each change made the way the server makes it, in a different order each time.
                        client.queue = []
                        client.discreteQueued = 0
                        client.dropped = dropped
                        client.subscription = subscription
                        if waiting { #expect(client.enqueue(queued, limit: 10)) }
                        client.closeAfterFlush = closing
                        for messageClass in MessageClass.allCases {
                            let expected = client.wants(messageClass) && !dropped && !closing && !waiting
                            #expect(client.sendsAtOnce(messageClass) == expected, "\(messageClass) \(subscription) \(dropped) \(closing) \(waiting)")
                        }
                        client.dropped = false
                        client.closeAfterFlush = false
                    }
                }
            }
        }
        // The queue emptied by writing it out: at once again.
        client.subscription = Subscription()
        #expect(client.enqueue(queued, limit: 10))
        #expect(!client.sendsAtOnce(.tempo))
        #expect(client.flush() == .done)
        #expect(client.sendsAtOnce(.tempo))
    }

    @Test("lines written at once until the socket is full, then queued: every seq once, in order, none skipped")
    func seqAcrossAFullSocket() {
        let (server, peer) = ClientConnectionTests.pair()
        defer { close(server); close(peer) }
        let client = ClientConnection(fd: server)
        var results: [ClientConnection.SendNowResult] = []
        for index in 0..<400 {
            let message = ServerMessage(ControlEvent.tempo(bpm: 120, value: index, phase: .moved, timeNanoseconds: Int64(index)))
            OutgoingLine.with(message) { line in
                let result = client.sendNow(as: &line) { message }
                results.append(result)
                if result == .notSent { #expect(client.enqueue(message, limit: 1000)) }
            }
        }
        // The small socket took some at once, then one in part or none, then the rest waited.
        #expect(results.first == .sent && results.contains(.notSent))
        #expect(client.seq == 400)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while client.flush() != .done || received.filter({ $0 == 10 }).count < 400 {
            let n = recv(peer, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { received += buffer[0..<n] }
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 400)
        for (index, line) in lines.enumerated() {
            #expect(line.hasPrefix(#"{"class":"tempo","seq":\#(index + 1),"bpm":120,"value":\#(index),"#), "\(line)")
        }
    }
}
