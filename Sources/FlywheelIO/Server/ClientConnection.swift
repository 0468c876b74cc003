import FlywheelCore
import Glibc

/// One client: its line reader, its bounded outgoing queue (discrete messages never dropped,
/// frames coalesced latest-wins) and its subscription.
final class ClientConnection {
    let fd: Int32
    /// Received bytes not yet split into lines; lines before `scanned` have been taken.
    var input: [UInt8] = []
    /// One outgoing message with this client's seq: the shared encoding and the digits, never a
    /// copy of its bytes; `counted` when it counts against the queue limit (frames do not).
    struct Pending {
        let message: ServerMessage
        let seq: UInt64
        let counted: Bool
        var key: String? { message.coalescingKey }
        /// The bytes this client receives (a copy, for tests and diagnostics).
        var bytes: [UInt8] { message.bytes(seq: seq) }
    }
    /// Outgoing messages in order; `offset` bytes of the first are already written. Its accesses
    /// are not checked for exclusivity at run time: every one is on the loop's thread, none holds
    /// it across a call that could reach it again, and the check would be a `swift_beginAccess` on
    /// every delivered line (its cost: Tests/Benchmarks/BENCHMARKS.md).
    @exclusivity(unchecked) var queue: [Pending] = [] {
        didSet { refreshAtOnceMask() }
    }
    var offset = 0
    var discreteQueued = 0
    /// The last seq given to a line (written or queued), with its digits (``SeqDigits``);
    /// unchecked as ``queue`` is.
    @exclusivity(unchecked) var seqDigits = SeqDigits()
    /// The last seq given to a line (written or queued).
    var seq: UInt64 {
        get { seqDigits.value }
        set { seqDigits.set(newValue) }
    }
    var subscription = Subscription() {
        didSet {
            classMask = subscription.classMask
            refreshAtOnceMask()
        }
    }
    /// The subscription as asked on every delivered line (``Subscription/classMask``).
    private var classMask = Subscription().classMask
    /// The classes a broadcast writes to it at once, with no other check (``sendsAtOnce(_:)``):
    /// its subscription's while nothing waits to be written and it is neither closing nor
    /// dropped, none otherwise. Kept up to date by every change of those; unchecked as ``queue`` is.
    @exclusivity(unchecked) private(set) var atOnceMask: UInt32 = 0
    var closeAfterFlush = false {
        didSet { refreshAtOnceMask() }
    }
    /// The client shut down its sending side (or closed): nothing more to read, but it may still
    /// be listening (`socat` after its input ends).
    var readClosed = false
    /// Whether the loop is asked to say when the socket takes more (only while a backlog waits).
    var writeArmed = false
    /// Whether the loop watches it for input (until it shuts its sending side).
    var readArmed = true
    /// Whether the server has let it go (closed and forgotten).
    var dropped = false {
        didSet { refreshAtOnceMask() }
    }
    /// Pacing (``SocketServer/mayProceed(_:)``): when its window began, what it has used of it,
    /// and whether it waits for the window's end (not read meanwhile).
    var windowStart: Nanoseconds = 0
    var windowUsed = 0
    var paused = false
    /// Backpressure (``SocketServer/holdsBack(_:)``): since when more than half its queue has
    /// waited, its lines unhandled and nothing read from it until it reads (nil: not held back).
    var heldBackSince: Nanoseconds?
    /// Paused and hung up altogether: out of the loop until its window ends
    /// (``SocketServer/unwatch(_:)``).
    var unwatched = false

    /// The longest line a client may send, without its line ending.
    static let maximumLine = 64 * 1024
    /// Bytes read from one client in one loop turn, so a flooding client cannot starve the others.
    static let readBudget = 16 * 1024

    init(fd: Int32) {
        self.fd = fd
        refreshAtOnceMask()
    }

    /// Whether this client wants messages of `messageClass` (the protocol's delivery rules:
    /// ``Subscription``).
    func wants(_ messageClass: MessageClass) -> Bool { classMask & messageClass.bit != 0 }

    /// Whether a message of `messageClass` is written to it at once (``sendAtOnce(as:message:)``):
    /// it wants it, nothing waits before it, and it is neither closing nor dropped. One test on a
    /// delivered line; when false, the broadcast asks the rest one by one.
    @inline(__always)
    func sendsAtOnce(_ messageClass: MessageClass) -> Bool { atOnceMask & messageClass.bit != 0 }

    private func refreshAtOnceMask() { atOnceMask = dropped || closeAfterFlush || !queue.isEmpty ? 0 : classMask }

    /// Queues a message; false when the discrete queue is full (the client stopped reading).
    /// A message with a coalescing key (a frame, a state change a command broadcast) replaces an
    /// unsent one with the same key: latest wins, so a burst of them costs one slot.
    func enqueue(_ message: ServerMessage, limit: Int) -> Bool {
        if let key = message.coalescingKey {
            let firstUnsent = offset > 0 ? 1 : 0  // never the one half written
            if let index = queue.indices.last(where: { $0 >= firstUnsent && queue[$0].key == key }) {
                let counted = queue[index].counted
                queue.remove(at: index)
                seqDigits.countUp()
                queue.append(Pending(message: message, seq: seq, counted: counted))
                return true
            }
        }
        let counted = !message.isFrame
        if counted {
            guard discreteQueued < limit else { return false }
            discreteQueued += 1
        }
        seqDigits.countUp()
        queue.append(Pending(message: message, seq: seq, counted: counted))
        return true
    }

    enum SendNowResult { case sent, partlySent, notSent }

    /// Writes the message laid out as `line` at once when nothing waits before it: one `sendmsg`,
    /// nothing queued or copied. Partly written, the rest is queued as a message half written
    /// (`partlySent`), and only then is `message` asked for (the broadcast reads it where it lies
    /// rather than holding a copy for every line); not written at all (a backlog, a full socket,
    /// an error), nothing changed (`notSent`): the caller queues it as usual.
    @inline(__always)
    func sendNow(as line: inout OutgoingLine, message: () -> ServerMessage) -> SendNowResult {
        guard queue.isEmpty else { return .notSent }
        return sendAtOnce(as: &line, message: message)
    }

    /// ``sendNow(as:message:)`` where nothing waits to be written (``sendsAtOnce(_:)`` said so).
    @inline(__always)
    func sendAtOnce(as line: inout OutgoingLine, message: () -> ServerMessage) -> SendNowResult {
        seqDigits.countUp()
        let written = line.send(digits: seqDigits.digits, to: fd)
        guard written > 0 else {
            seqDigits.set(seq &- 1)  // not sent: the seq goes to the line the caller queues
            return .notSent
        }
        if written == line.count { return .sent }
        let message = message()
        let counted = !message.isFrame
        if counted { discreteQueued += 1 }
        queue.append(Pending(message: message, seq: seq, counted: counted))
        offset = written
        return .partlySent
    }

    /// Whether messages wait to be written.
    var hasBacklog: Bool { !queue.isEmpty }

    enum WriteResult: Equatable { case done, blocked, failed }

    /// Writes as much as the socket takes: each message in one `sendmsg` of its head, this
    /// client's seq digits and its tail, straight from the shared encoding.
    func flush() -> WriteResult {
        while let first = queue.first {
            let total = first.message.count(seq: first.seq)
            let result: IOResult<Int>
            do {
                result = try Syscall.nonBlocking("sendmsg", "client \(fd)") { OutgoingLine.send(first.message, seq: first.seq, skipping: offset, to: fd) }
            } catch {
                return .failed  // EPIPE, ECONNRESET: the client is gone
            }
            guard case .processed(let written) = result else { return .blocked }
            offset += written
            if offset == total {
                if first.counted { discreteQueued -= 1 }
                queue.removeFirst()
                offset = 0
            }
        }
        return .done
    }

    enum ReadResult: Equatable { case lines([[UInt8]]), tooLong, closed }

    /// Reads at most ``readBudget`` bytes into a buffer of its own (for tests; the server lends
    /// one buffer to all its clients: ``read(into:)``).
    func read() -> ReadResult {
        var scratch = [UInt8](repeating: 0, count: Self.readBudget)
        return read(into: &scratch)
    }

    /// Reads at most `scratch.count` bytes and splits the complete lines, in time linear in what
    /// was read; blank lines (spaces and tabs: keep-alives) are dropped here, costing nothing
    /// more. `.closed` when the client's sending side is shut (see ``readClosed``), after the
    /// lines before it.
    func read(into scratch: inout [UInt8]) -> ReadResult {
        let result: IOResult<Int>
        do {
            result = try Syscall.nonBlocking("recv", "client \(fd)") {
                scratch.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
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
        input += scratch[0..<count]
        windowUsed += count
        // Split from where the previous read stopped looking (newlines found by `memchr`), and
        // look at a line's bytes for blankness only until one is not a space or a tab: every byte
        // is looked at once at most.
        var lines: [[UInt8]] = []
        var start = 0
        var blank = pendingBlank  // the line at `start` holds only spaces and tabs before `blankFrom`
        var blankFrom = self.blankFrom
        var tooLong = false
        input.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var from = scanFrom
            while from < buffer.count, let found = memchr(base + from, 0x0A, buffer.count - from) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                var end = index
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                if end - start > Self.maximumLine {
                    tooLong = true
                    return
                }
                if blank { blank = Self.isBlank(buffer, from: blankFrom, to: end) }
                if !blank { lines.append(Array(buffer[start..<end])) }
                start = index + 1
                from = start
                blank = true
                blankFrom = start
            }
            // The line still arriving: a CR at its end may be followed by the LF in the next
            // write, so it is judged (blank or not) when the next bytes come.
            var end = buffer.count
            if end > start, buffer[end - 1] == 0x0D { end -= 1 }
            if blank { blank = Self.isBlank(buffer, from: blankFrom, to: end) }
            blankFrom = max(blankFrom, end)
        }
        if tooLong { return .tooLong }
        input.removeFirst(start)
        scanFrom = input.count
        pendingBlank = blank
        self.blankFrom = blankFrom - start
        // A line still arriving: its CR may be followed by the LF in the next write, so a trailing
        // CR does not count against the limit.
        let pendingLength = input.last == 0x0D ? input.count - 1 : input.count
        if pendingLength > Self.maximumLine { return .tooLong }
        return .lines(lines)
    }

    /// Whether `buffer[from..<to]` holds only spaces and tabs (a keep-alive's bytes).
    private static func isBlank(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var index = from
        while index < to {
            let byte = buffer[index]
            if byte != 0x20, byte != 0x09 { return false }
            index += 1
        }
        return true
    }

    /// Whether the line still arriving is blank before ``blankFrom`` (where its next bytes, or
    /// the CR it ends with so far, are looked at).
    private var pendingBlank = true
    private var blankFrom = 0
    /// Complete lines read and not yet handled: the server handles a few per loop turn
    /// (``SocketServer/linesPerTurn``) and reads no more from this client until they are done.
    var unhandled: [[UInt8]] = []
    var unhandledStart = 0
    /// Whether the loop has been asked to come back for ``unhandled``.
    var comingBack = false
    /// Where the search for the next newline continues in ``input``.
    private var scanFrom = 0
}
