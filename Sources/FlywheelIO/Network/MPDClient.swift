import FlywheelCore
import Glibc

/// MPD's text protocol over a Unix socket or TCP, on the bridges' ``SessionLoop``, never
/// waiting: commands go out in order and each answer (`OK`, or `ACK …` with MPD's own words) is
/// handed to the handler given with its command. `idle` waits for a change and ``noidle()`` ends
/// the wait. Bounded: a line of at most 64 KiB, an answer of at most 4,096 lines before its `OK`, and 10 s for
/// the greeting and for each answer (the wait of `idle` excepted); past a bound the connection is
/// a failure (``onFailure``), never more memory or a hang.
public final class MPDClient {
    /// MPD's answer to one command.
    public enum Answer {
        /// `OK`, after these key/value pairs.
        case ok([(String, String)])
        /// `ACK [error@command] {name} message`: MPD refused it (the line without `ACK `).
        case refused(String)
    }

    /// How long MPD may take to greet or to answer a command (10 s).
    public static let answerNanoseconds: Nanoseconds = 10_000_000_000
    /// The most lines one answer may have (4,096: a status or a song is a few dozen).
    public static let maximumAnswerLines = 4096

    /// The connection, for `poll`.
    public let connection: StreamConnection
    /// Where MPD is, for messages.
    public var address: String { connection.address }
    /// Whether MPD greeted (`OK MPD x.y.z`).
    public private(set) var greeted = false
    /// Called once MPD greeted.
    public var onGreeted: () -> Void = {}
    /// Called when the connection fails or ends, with the reason (a sentence).
    public var onFailure: (String) -> Void = { _ in }
    private struct Pending {
        let command: String
        let handler: (Answer) -> Void
        let sentAt: Nanoseconds
        let isIdle: Bool
    }
    private var pending: [Pending] = []
    private var pairs: [(String, String)] = []
    private let openedAt: Nanoseconds
    private var noidleAt: Nanoseconds?
    /// Whether the connection failed (``onFailure`` was called, once).
    public private(set) var failed = false

    /// Starts connecting to `address` (a path, or `host:port`, port 6600 by default).
    public init(address: String) throws(SystemError) {
        connection = try StreamConnection(connectingTo: address, defaultPort: "6600")
        openedAt = MonotonicClock.now()
    }

    /// Speaks MPD's protocol on `connection` (made elsewhere: a socket pair in tests and fuzzing).
    public init(connection: StreamConnection) {
        self.connection = connection
        openedAt = MonotonicClock.now()
    }

    /// Whether nothing is outstanding (no command, no idle).
    public var isQuiet: Bool { pending.isEmpty }
    /// Whether an `idle` is outstanding.
    public var isIdling: Bool { pending.last?.isIdle ?? false }

    /// Sends `text`; `handler` gets MPD's answer.
    public func command(_ text: String, _ handler: @escaping (Answer) -> Void) {
        send(text, Pending(command: text, handler: handler, sentAt: MonotonicClock.now(), isIdle: false))
    }

    /// Sends `idle SUBSYSTEMS`; `handler` gets the answer when something changed or ``noidle()`` ended it.
    public func idle(_ subsystems: String, _ handler: @escaping (Answer) -> Void) {
        noidleAt = nil
        send("idle \(subsystems)", Pending(command: "idle", handler: handler, sentAt: MonotonicClock.now(), isIdle: true))
    }

    /// Ends the `idle` under way (once; its answer comes to the idle's handler).
    public func noidle() {
        guard isIdling, noidleAt == nil else { return }
        noidleAt = MonotonicClock.now()
        do { try connection.send("noidle") } catch { fail(error.description) }
    }

    private func send(_ text: String, _ entry: Pending) {
        guard !failed else { return }
        do {
            try connection.send(text)
            pending.append(entry)
        } catch { fail(error.description) }
    }

    public func fail(_ reason: String) {
        guard !failed else { return }
        failed = true
        onFailure(reason)
    }

    /// One line from MPD.
    public func handle(_ line: LineReader.Line) {
        guard !failed else { return }
        guard case .line(let bytes) = line else {
            return fail("it sent a line over 64 KiB")
        }
        // Bytes, not text: "OK" and "ACK " are MPD's bytes whatever follows them.
        guard greeted else {
            guard bytes.starts(with: Self.greeting) else { return fail("it did not greet like MPD") }
            greeted = true
            onGreeted()
            return
        }
        let isOK = bytes == Self.ok
        if isOK || bytes.starts(with: Self.ack) {
            guard !pending.isEmpty else { return fail("it answered a command it was not sent") }
            let entry = pending.removeFirst()
            let answer: Answer = isOK ? .ok(pairs) : .refused(String(decoding: bytes.dropFirst(4), as: UTF8.self))
            pairs = []
            entry.handler(answer)
            return
        }
        guard pairs.count < Self.maximumAnswerLines else { return fail("it sent an answer of more than \(Self.maximumAnswerLines) lines") }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let value = bytes[(colon + 1)...].drop { $0 == 0x20 }
            pairs.append((String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
    }

    static let greeting = Array("OK MPD ".utf8)
    static let ok = Array("OK".utf8)
    static let ack = Array("ACK ".utf8)

    /// When MPD must have greeted or answered by.
    public var deadline: Nanoseconds? {
        if failed { return nil }
        if !greeted { return openedAt + Self.answerNanoseconds }
        if let first = pending.first, !first.isIdle { return first.sentAt + Self.answerNanoseconds }
        if let first = pending.first, first.isIdle, let noidleAt { return noidleAt + Self.answerNanoseconds }
        return nil
    }

    /// The deadline passed: MPD is stalled.
    public func due(at now: Nanoseconds) {
        guard let deadline, now >= deadline else { return }
        if !greeted { return fail("it did not greet within 10 s") }
        fail("it did not answer '\(pending.first?.command ?? "")' within 10 s")
    }

    /// poll's report on the connection.
    public func ready(revents: Int16) {
        do {
            if connection.isConnecting { try connection.finishConnecting() }
            if revents & Int16(POLLOUT) != 0 { try connection.flush() }
        } catch { return fail(error.description) }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        // 64 KiB a turn: MPD's answers are short, and a flooding peer costs one line's worth before
        // it is dropped.
        let open = connection.receive(maximumBytes: 65_536) { line in handle(line) }
        if !open { fail(connection.lastError?.description ?? "it closed the connection") }
    }
}

extension MPDClient.Answer {
    /// The value of `key` in an `OK` answer.
    public func value(_ key: String) -> String? {
        guard case .ok(let pairs) = self else { return nil }
        return pairs.first(where: { $0.0 == key })?.1
    }
}
