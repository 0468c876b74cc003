import FlywheelCore
import Glibc

/// One client: its line reader, its bounded outgoing queue (discrete messages never dropped,
/// frames coalesced latest-wins) and its subscription.
final class ClientConnection {
    let fd: Int32
    /// Received bytes not yet split into lines; lines before `scanned` have been taken.
    var input: [UInt8] = []
    /// Outgoing messages in order, with their coalescing key and whether they count against the
    /// queue limit (frames do not); `offset` bytes of the first are already written.
    var queue: [(bytes: [UInt8], key: String?, counted: Bool)] = []
    var offset = 0
    var discreteQueued = 0
    var seq: UInt64 = 0
    var subscription = Subscription()
    var closeAfterFlush = false
    /// The client shut down its sending side (or closed): nothing more to read, but it may still
    /// be listening (`socat` after its input ends).
    var readClosed = false
    /// Whether the loop is asked to say when the socket takes more (only while a backlog waits).
    var writeArmed = false
    /// Whether the loop watches it for input (until it shuts its sending side).
    var readArmed = true

    /// The longest line a client may send, without its line ending.
    static let maximumLine = 64 * 1024
    /// Bytes read from one client in one loop turn, so a flooding client cannot starve the others.
    static let readBudget = 16 * 1024

    init(fd: Int32) { self.fd = fd }

    /// Whether this client wants `message` (the protocol's delivery rules: ``Subscription``).
    func wants(_ message: ServerMessage) -> Bool {
        subscription.wants(message)
    }

    /// Queues a message; false when the discrete queue is full (the client stopped reading).
    /// A message with a coalescing key (a frame, a state change a command broadcast) replaces an
    /// unsent one with the same key: latest wins, so a burst of them costs one slot.
    func enqueue(_ message: ServerMessage, limit: Int) -> Bool {
        if let key = message.coalescingKey {
            let firstUnsent = offset > 0 ? 1 : 0  // never the one half written
            if let index = queue.indices.last(where: { $0 >= firstUnsent && queue[$0].key == key }) {
                let counted = queue[index].counted
                queue.remove(at: index)
                seq += 1
                queue.append((message.bytes(seq: seq), key, counted))
                return true
            }
        }
        let counted = !message.isFrame
        if counted {
            guard discreteQueued < limit else { return false }
            discreteQueued += 1
        }
        seq += 1
        queue.append((message.bytes(seq: seq), message.coalescingKey, counted))
        return true
    }

    /// Whether messages wait to be written.
    var hasBacklog: Bool { !queue.isEmpty }

    enum WriteResult: Equatable { case done, blocked, failed }

    /// Writes as much as the socket takes.
    func flush() -> WriteResult {
        while let first = queue.first {
            let remaining = first.bytes.count - offset
            let result: IOResult<Int>
            do {
                result = try Syscall.nonBlocking("send", "client \(fd)") {
                    first.bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, remaining, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                return .failed  // EPIPE, ECONNRESET: the client is gone
            }
            guard case .processed(let written) = result else { return .blocked }
            offset += written
            if offset == first.bytes.count {
                if first.counted { discreteQueued -= 1 }
                queue.removeFirst()
                offset = 0
            }
        }
        return .done
    }

    enum ReadResult: Equatable { case lines([[UInt8]]), tooLong, closed }

    /// Reads at most ``readBudget`` bytes and splits the complete lines, in time linear in what
    /// was read. `.closed` when the client's sending side is shut (see ``readClosed``), after the
    /// lines before it.
    func read() -> ReadResult {
        let result: IOResult<Int>
        do {
            result = try Syscall.nonBlocking("recv", "client \(fd)") {
                chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            }
        } catch {
            readClosed = true  // ECONNRESET: nothing more will come
            return .closed
        }
        guard case .processed(let count) = result else { return .lines([]) }
        if count == 0 {
            readClosed = true
            return .closed
        }
        input += chunk[0..<count]
        // Split from where the previous read stopped looking: every byte is looked at once.
        var lines: [[UInt8]] = []
        var start = 0
        for index in scanFrom..<input.count where input[index] == 0x0A {
            var end = index
            if end > start, input[end - 1] == 0x0D { end -= 1 }
            if end - start > Self.maximumLine { return .tooLong }
            lines.append(Array(input[start..<end]))
            start = index + 1
        }
        input.removeFirst(start)
        scanFrom = input.count
        // A line still arriving: its CR may be followed by the LF in the next write, so a trailing
        // CR does not count against the limit.
        let pendingLength = input.last == 0x0D ? input.count - 1 : input.count
        if pendingLength > Self.maximumLine { return .tooLong }
        return .lines(lines)
    }

    /// The receive buffer, reused.
    private var chunk = [UInt8](repeating: 0, count: ClientConnection.readBudget)
    /// Where the search for the next newline continues in ``input``.
    private var scanFrom = 0
}
