import FlywheelCore
import Glibc
import Testing
@testable import FlywheelIO

/// A client that writes many commands before reading their answers is held back (its lines wait,
/// unread, in its socket) instead of being disconnected, for as long as it reads within the limit.
@Suite("Client backpressure", .serialized)
struct ClientBackpressureTests {
    static let count = 3000

    /// `count` `set tempo` lines, one write's worth: more answers than a client's queue holds.
    static let burst: [UInt8] = {
        var text = ""
        for index in 0..<count { text += "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(bpm(index))}\n" }
        return Array(text.utf8)
    }()

    static func bpm(_ index: Int) -> Int { 40 + index % 200 }

    /// A peer's complete lines as they arrive (a read may end inside a line).
    struct Lines {
        let fd: Int32
        var buffer: [UInt8] = []
        var lines: [JSONValue] = []
        var ended = false

        init(_ fd: Int32) { self.fd = fd }

        /// Takes what the socket holds now; true when anything came.
        mutating func take() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            var progress = false
            while !ended {
                let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if n == 0 { ended = true }
                if n <= 0 { break }
                progress = true
                buffer += chunk[0..<n]
            }
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                if let message = try? JSONParser.parse(Array(buffer[start..<newline])) { lines.append(message) }
                start = newline + 1
            }
            buffer.removeFirst(start)
            return progress
        }

        /// The `state` answers' tempos, in order.
        var answeredTempos: [Int] {
            lines.filter { $0["class"] == .string("state") }.compactMap {
                if case .int(let bpm)? = $0["tempo"]?["bpm"] { return bpm } else { return nil }
            }
        }

        var errors: [JSONValue] { lines.filter { $0["class"] == .string("error") } }
    }

    /// A server answering with a real ``DaemonCore``, with `clients` connected and greeted.
    static func withCore(clients: Int, _ body: (EventLoop, SocketServer, [Int32]) throws -> Void) throws {
        try SocketServerFairnessTests.withServer { path, loop, server in
            var core = DaemonCore()
            server.hello = { time in core.hello(version: "test", devices: [], at: time) }
            server.onCommand = { command, time in core.handle(command, at: time) }
            let fds = (0..<clients).map { _ in SocketServerFairnessTests.connect(path) }
            defer { fds.forEach { close($0) } }
            while server.clientCount < clients { try loop.runOnce(timeoutMilliseconds: 1000) }
            for fd in fds { _ = SocketServerFairnessTests.received(fd) }
            try body(loop, server, fds)
        }
    }

    /// Writes the whole burst as the socket takes it, reading nothing, while the server runs;
    /// how many bytes were written (fewer when the server shut its receiving side).
    static func write(_ bytes: [UInt8], to fd: Int32, loop: EventLoop) throws -> Int {
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 {
                written += n
            } else if n < 0 && errno != EAGAIN {
                break
            }
            try loop.runOnce(timeoutMilliseconds: n > 0 ? 0 : 10)
        }
        return written
    }

    /// Runs the loop until the server has done all it will for `client` without its peer reading:
    /// every byte it sent read and every line handled, or the server no longer reads it (held
    /// back, or being closed).
    static func settle(_ client: ClientConnection, server: SocketServer, loop: EventLoop) throws {
        func settled() -> Bool {
            guard server.clients[client.fd] === client, !client.closeAfterFlush else { return true }
            if !client.readArmed && !client.paused { return true }
            var unread: Int32 = 0
            _ = ioctl(client.fd, UInt(FIONREAD), &unread)
            return unread == 0 && client.unhandledStart >= client.unhandled.count
        }
        var turns = 0
        while !settled() && turns < 100_000 {
            try loop.runOnce(timeoutMilliseconds: 10)
            turns += 1
        }
    }

    /// The first of `clients` has written the burst without reading and is held back, its limit
    /// `limitNanoseconds`.
    static func withHeldBack(clients: Int, limitNanoseconds: Nanoseconds, _ body: (EventLoop, SocketServer, [Int32], ClientConnection) throws -> Void) throws {
        try withCore(clients: clients) { loop, server, fds in
            server.holdBackLimitNanoseconds = limitNanoseconds
            let client = server.clientList[0]
            #expect(try write(burst, to: fds[0], loop: loop) == burst.count)
            try settle(client, server: server, loop: loop)
            #expect(client.heldBackSince != nil)
            try body(loop, server, fds, client)
        }
    }

    /// Runs the loop (each turn waiting up to 5 s) until `done` or 20 turns; how many it took.
    static func turns(_ loop: EventLoop, until done: () -> Bool) throws -> Int {
        var turns = 0
        while !done() && turns < 20 {
            try loop.runOnce(timeoutMilliseconds: 5000)
            turns += 1
        }
        return turns
    }

    /// Runs the loop, reading `peer`, until `done` or nothing has come for 100 turns of 50 ms.
    static func read(_ peer: inout Lines, loop: EventLoop, until done: (Lines) -> Bool) throws {
        var idle = 0
        while !done(peer), !peer.ended, idle < 100 {
            try loop.runOnce(timeoutMilliseconds: 50)
            idle = peer.take() ? 0 : idle + 1
        }
    }

    @Test("3,000 set commands written before reading anything: all answered in order, nobody disconnected, the quiet neighbour's last tempo is the last set")
    func pipelinedBurst() throws {
        try Self.withCore(clients: 2) { loop, server, fds in
            #expect(Self.count > server.queueLimit)
            let client = server.clientList[0]
            #expect(try Self.write(Self.burst, to: fds[0], loop: loop) == Self.burst.count)
            try Self.settle(client, server: server, loop: loop)  // only then does it read
            var flooder = Lines(fds[0])
            try Self.read(&flooder, loop: loop) { $0.answeredTempos.count >= Self.count }
            #expect(flooder.errors.isEmpty, "\(flooder.errors.first?.encoded() ?? "")")
            #expect(flooder.answeredTempos.count == Self.count)
            #expect(flooder.answeredTempos.elementsEqual((0..<Self.count).map(Self.bpm)))
            #expect(!flooder.ended)
            // The neighbour read nothing meanwhile: still connected, and it sees the last tempo.
            var neighbour = Lines(fds[1])
            try Self.read(&neighbour, loop: loop) { $0.lines.last?["bpm"] == .int(Self.bpm(Self.count - 1)) }
            #expect(neighbour.errors.isEmpty)
            #expect(!neighbour.ended)
            #expect(neighbour.lines.last?["bpm"] == .int(Self.bpm(Self.count - 1)))
            #expect(server.clientCount == 2)
        }
    }

    @Test("held back, a client is not read (its bytes wait in the kernel, its read interest dropped, nothing handled) until it reads; then it is served to the end")
    func heldBackResumes() throws {
        // An hour: its limit cannot run out here.
        try Self.withHeldBack(clients: 1, limitNanoseconds: 3_600_000_000_000) { loop, server, fds, client in
            #expect(!client.readArmed)
            #expect(client.discreteQueued > server.queueLimit / 2 && client.discreteQueued < server.queueLimit)
            #expect(server.holdBackTimer?.armedAt != nil)
            var unread: Int32 = 0
            #expect(ioctl(client.fd, UInt(FIONREAD), &unread) == 0)
            let handled = client.unhandledStart, waiting = unread
            #expect(waiting > 0)
            for _ in 0..<50 { try loop.runOnce(timeoutMilliseconds: 0) }  // nothing moves while it does not read
            #expect(ioctl(client.fd, UInt(FIONREAD), &unread) == 0)
            #expect(unread == waiting && client.unhandledStart == handled && client.heldBackSince != nil)
            var peer = Lines(fds[0])
            try Self.read(&peer, loop: loop) { $0.answeredTempos.count >= Self.count }
            #expect(peer.errors.isEmpty)
            #expect(peer.answeredTempos.elementsEqual((0..<Self.count).map(Self.bpm)))
            #expect(client.heldBackSince == nil && server.heldBackClients.isEmpty)
            #expect(server.holdBackTimer?.armedAt == nil)  // nothing ticks at rest
        }
    }

    @Test("a client that writes 3,000 commands and never reads is disconnected with queue-overflow when its hold-back limit is up: its slot free, the loop asleep meanwhile")
    func neverReads() throws {
        try Self.withHeldBack(clients: 2, limitNanoseconds: 200_000_000) { loop, server, fds, client in
            let since = try #require(client.heldBackSince)
            let turns = try Self.turns(loop) { server.clientCount < 2 }
            #expect(server.clientCount == 1)  // its slot is free at once
            #expect(MonotonicClock.now() - since >= server.holdBackLimitNanoseconds)
            #expect(turns <= 4)  // woken by the limit's timer (and perhaps pacing's), not by the client
            #expect(server.heldBackClients.isEmpty && server.holdBackTimer?.armedAt == nil)
            var peer = Lines(fds[0])
            try Self.read(&peer, loop: loop) { _ in false }
            #expect(peer.ended)
            #expect(peer.lines.last?["code"] == .string("queue-overflow"))
            #expect(peer.answeredTempos.count < Self.count)
            let more = Array("{\"cmd\":\"ping\"}\n".utf8)
            #expect(more.withUnsafeBytes { send(fds[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } < 0)  // not read any more
            // The neighbour is served on.
            #expect(more.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) } == more.count)
            var neighbour = Lines(fds[1])
            try Self.read(&neighbour, loop: loop) { $0.lines.last?["class"] == .string("pong") }
            #expect(neighbour.lines.last?["class"] == .string("pong"))
        }
    }

    @Test("a held-back client past its limit while as many clients are being closed as may be is dropped at once, nothing written to its closed descriptor")
    func expiresWithClosingFull() throws {
        try Self.withHeldBack(clients: 2, limitNanoseconds: 200_000_000) { loop, server, fds, first in
            let second = try #require(server.clientList.last)
            // The first never reads: past its limit its error waits behind a full socket, so it
            // stays being closed.
            _ = try Self.turns(loop) { first.closeAfterFlush || first.dropped }
            #expect(first.closeAfterFlush && !first.dropped)
            server.clientLimit = 1  // as many being closed as may be
            #expect(try Self.write(Self.burst, to: fds[1], loop: loop) > 0)
            try Self.settle(second, server: server, loop: loop)
            #expect(second.heldBackSince != nil)
            // Past its limit it cannot join the closing ones: dropped (it was then flushed, a write to
            // its closed descriptor: EBADF, a precondition, the daemon gone).
            _ = try Self.turns(loop) { second.dropped }
            #expect(second.dropped)
            #expect(server.clientCount == 0)
        }
    }

    @Test("a client that only listens, however many broadcasts wait for it, is never held back")
    func listenerNotHeldBack() throws {
        try Self.withCore(clients: 1) { loop, server, fds in
            server.holdBackLimitNanoseconds = 200_000_000
            // A queue larger than the socket holds, so that what one write to it takes leaves more
            // than half waiting.
            server.queueLimit = 20_000
            let listener = server.clientList[0]
            // Input events (discrete, never coalesced) until more than half its queue waits.
            var index = 0
            while listener.discreteQueued <= server.holdBackAbove + 4_000 && index < 100_000 {
                server.broadcast([ServerMessage(ControlEvent.tempo(bpm: BPM(integerLiteral: Self.bpm(index)), value: index, phase: .moved, timeNanoseconds: 0))])
                index += 1
            }
            #expect(listener.discreteQueued > server.holdBackAbove)
            var some = [UInt8](repeating: 0, count: 65536)
            var taken = 0
            while case let n = recv(fds[0], &some, some.count, Int32(MSG_DONTWAIT)), n > 0 { taken += n }
            #expect(taken > 0)  // its socket empty: EPOLLOUT for it, and the server writes
            for _ in 0..<5 { try loop.runOnce(timeoutMilliseconds: 50) }
            #expect(listener.discreteQueued > server.holdBackAbove)  // still more than half waiting
            #expect(listener.heldBackSince == nil)
            #expect(server.clients[listener.fd] === listener && !listener.closeAfterFlush)
        }
    }

    @Test("a held-back client that hangs up is let go at once, its lines unhandled, the timer disarmed")
    func heldBackHangsUp() throws {
        try Self.withHeldBack(clients: 1, limitNanoseconds: 3_600_000_000_000) { loop, server, fds, _ in
            shutdown(fds[0], Int32(SHUT_RDWR))
            let turns = try Self.turns(loop) { server.clientCount == 0 }
            #expect(server.clientCount == 0)
            #expect(turns <= 4)  // not heard of again and again while it waits for a limit of an hour
            #expect(server.heldBackClients.isEmpty && server.holdBackTimer?.armedAt == nil)
        }
    }
}
