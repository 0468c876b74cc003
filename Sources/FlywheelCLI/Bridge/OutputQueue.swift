import FlywheelCore
import FlywheelIO
import Glibc

/// Lines for a descriptor the bridge does not own (standard output), on the ``SessionLoop``: kept
/// in a bounded queue and written only when `poll` says the descriptor takes bytes, at most
/// PIPE_BUF at a time, so a write never waits even on a blocking pipe. Above ``highWaterBytes``
/// it says it is full (the bridge then stops reading what feeds it); a reader that has gone
/// (EPIPE) is reported once through `onClosed`.
final class OutputQueue: SessionPart {
    let fd: Int32
    let name: String
    /// The queue is full above this many bytes (default 1 MiB).
    let highWaterBytes: Int
    var onClosed: (SystemError) -> Void = { _ in }
    private var bytes: [UInt8] = []
    private var start = 0
    private(set) var closed = false

    init(fd: Int32, name: String, highWaterBytes: Int = 1 << 20) {
        self.fd = fd
        self.name = name
        self.highWaterBytes = highWaterBytes
    }

    /// Bytes waiting.
    var count: Int { bytes.count - start }
    /// Whether more than ``highWaterBytes`` wait.
    var isFull: Bool { count > highWaterBytes }
    var isEmpty: Bool { count == 0 }

    /// Queues a line (a newline added).
    func append(_ line: [UInt8]) {
        guard !closed else { return }
        if start > 0, start >= bytes.count / 2 {
            bytes.removeSubrange(..<start)
            start = 0
        }
        bytes.append(contentsOf: line)
        bytes.append(0x0A)
    }

    var pollRequest: pollfd? { isEmpty || closed ? nil : pollfd(fd: fd, events: Int16(POLLOUT), revents: 0) }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard !closed, !isEmpty else { return }
        // POLLOUT on a pipe means PIPE_BUF bytes fit: a write of at most that never blocks.
        let piece = min(count, Int(PIPE_BUF))
        do {
            let result = try Syscall.nonBlocking("write", name) { bytes.withUnsafeBytes { write(self.fd, $0.baseAddress! + start, piece) } }
            if case .processed(let written) = result { start += written }
            if start == bytes.count {
                bytes.removeAll(keepingCapacity: bytes.capacity <= 65_536)
                start = 0
            }
        } catch {
            closed = true
            bytes = []
            start = 0
            onClosed(error)
        }
    }
}

/// Lines read from a descriptor the bridge does not own (standard input), on the
/// ``SessionLoop``, through a bounded ``LineReader``; not read while `paused` (what feeds it
/// then waits in the pipe, so the writer blocks, not this process's memory).
final class InputLines: SessionPart {
    let fd: Int32
    let name: String
    var reader: LineReader
    /// The buffer each read goes into (made once).
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    var paused = false
    var onLine: (LineReader.Line) -> Void = { _ in }
    var onEnd: () -> Void = {}
    private(set) var ended = false

    init(fd: Int32, name: String, maximumLineBytes: Int = 65_536) {
        self.fd = fd
        self.name = name
        reader = LineReader(maximumLineBytes: maximumLineBytes)
    }

    var pollRequest: pollfd? { ended || paused ? nil : pollfd(fd: fd, events: Int16(POLLIN), revents: 0) }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard !ended else { return }
        // poll said readable (or hung up): one read returns what is there without waiting.
        let count = (try? Syscall.call("read", name) { chunk.withUnsafeMutableBytes { read(self.fd, $0.baseAddress, $0.count) } }) ?? 0
        if count == 0 {
            ended = true
            reader.finish()
        } else {
            reader.append(chunk[0..<count])
        }
        while let line = reader.next() { onLine(line) }
        if ended { onEnd() }
    }
}
