import FlywheelCore
import Glibc

/// One client: its line reader, its bounded outgoing queue (discrete messages never dropped,
/// frames coalesced latest-wins) and its subscription.
final class ClientConnection {
    let fd: Int32
    var input: [UInt8] = []
    /// Outgoing messages in order; `offset` bytes of the first are already written.
    var queue: [(bytes: [UInt8], frameKey: String?)] = []
    var offset = 0
    var discreteQueued = 0
    var seq: UInt64 = 0
    var subscription = Subscription()
    var closeAfterFlush = false

    static let maximumLine = 64 * 1024

    init(fd: Int32) { self.fd = fd }

    /// Whether this client wants `message` (the protocol's delivery rules: ``Subscription``).
    func wants(_ message: ServerMessage) -> Bool {
        subscription.wants(message)
    }

    /// Queues a message; false when the discrete queue is full (the client stopped reading).
    func enqueue(_ message: ServerMessage, limit: Int) -> Bool {
        seq += 1
        let bytes = message.bytes(seq: seq)
        if message.isFrame, let key = message.coalescingKey {
            // Latest wins: replace an unsent frame of the same control (not the one half written).
            let firstUnsent = offset > 0 ? 1 : 0
            if let index = queue.indices.last(where: { $0 >= firstUnsent && queue[$0].frameKey == key }) {
                queue.remove(at: index)
            }
            queue.append((bytes, key))
            return true
        }
        guard discreteQueued < limit else { return false }
        discreteQueued += 1
        queue.append((bytes, nil))
        return true
    }

    enum WriteResult { case done, blocked, failed }

    /// Writes as much as the socket takes.
    func flush() -> WriteResult {
        while let first = queue.first {
            let remaining = first.bytes.count - offset
            let written = first.bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, remaining) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return .blocked }
                return .failed
            }
            offset += written
            if offset == first.bytes.count {
                if first.frameKey == nil { discreteQueued -= 1 }
                queue.removeFirst()
                offset = 0
            }
        }
        return .done
    }

    enum ReadResult { case lines([[UInt8]]), tooLong, closed }

    /// Reads what is available and splits complete lines.
    func read() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 16384)
        var lines: [[UInt8]] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { break }
                return .closed
            }
            if count == 0 {
                return lines.isEmpty ? .closed : .lines(lines)
            }
            input += buffer[0..<count]
            while let newline = input.firstIndex(of: 0x0A) {
                var line = Array(input[..<newline])
                if line.last == 0x0D { line.removeLast() }
                input.removeSubrange(...newline)
                if line.count > Self.maximumLine { return .tooLong }
                lines.append(line)
            }
            if input.count > Self.maximumLine { return .tooLong }
        }
        return .lines(lines)
    }
}
