import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel connect`'s loop: standard input → the daemon → standard output, each side bounded.
/// Commands are read only while the daemon's queue is short and the daemon's lines only while
/// standard output keeps up, so a burst of any size is answered in order with the memory of a
/// few buffers. An over-long input line is answered as the daemon would (`line-too-long`) and
/// dropped; input bytes go on unchanged (invalid UTF-8 is the daemon's to name). At the end of
/// the input it waits for the answers still due; a closed standard output is said and ends it.
final class ConnectSession {
    /// The answers' classes: each command gets exactly one of them (events do not count).
    static let answerClasses: Set<String> = ["pong", "state", "watch", "tap", "error"]
    /// After the input's end, how long to wait for the next answer still due (2 s).
    static let drainNanoseconds: Nanoseconds = 2_000_000_000
    /// The daemon's queue above which input is not read (64 KiB).
    static let daemonQueueLimit = 65_536

    let loop: SessionLoop
    let daemon: DaemonLink
    let input = InputLines(fd: STDIN_FILENO, name: "standard input")
    let output = OutputQueue(fd: STDOUT_FILENO, name: "standard output")
    let log: (String) -> Void
    /// Commands sent on the present connection, and answers received on it.
    private var sent = 0
    private var answered = 0
    private var drainUntil: Nanoseconds?
    private(set) var failure: ToolError?

    init(path: String, log: @escaping (String) -> Void) throws(ToolError) {
        self.log = log
        loop = try SessionLoop()
        daemon = DaemonLink(path: path, name: "flywheel connect", request: [], log: log)
        daemon.onLine = { [unowned self] line in received(line) }
        daemon.onDropped = { [unowned self] in
            sent = 0
            answered = 0
        }
        input.onLine = { [unowned self] line in forward(line) }
        input.onEnd = { [unowned self] in inputEnded() }
        output.onClosed = { [unowned self] error in
            failure = ToolError("connect's standard output was closed (\(Errno.describe(error.errno))); it stops")
            loop.stop()
        }
        try daemon.connectNow()
        loop.parts = [daemon, output, input, DrainTimer(session: self)]
        loop.beforePoll = { [unowned self] in
            balance()
            finishIfDrained()
        }
    }

    func run() throws(ToolError) {
        try loop.run()
        if let failure { throw failure }
    }

    /// Flow control, before each poll: input waits while the daemon has not read what was sent;
    /// the daemon waits while standard output is full.
    func balance() {
        input.paused = (daemon.connection?.queuedByteCount ?? 0) > Self.daemonQueueLimit
        daemon.readPaused = output.isFull
    }

    private func received(_ line: [UInt8]) {
        output.append(line)
        if let message = try? JSONParser.parse(line), let name = message["class"]?.stringValue, Self.answerClasses.contains(name) {
            answered += 1
            if drainUntil != nil { drainUntil = MonotonicClock.now() + Self.drainNanoseconds }
        }
        balance()
        finishIfDrained()
    }

    private func forward(_ line: LineReader.Line) {
        switch line {
        case .tooLong:
            // What flywheeld itself answers to such a line, without sending it (nor closing: nothing reached it).
            var answer = DaemonCore.error(
                .lineTooLong, "A line over 64 KiB was received; it was not sent to flywheeld.", at: MonotonicClock.now()).bytesWithoutSeq
            if answer.last == 0x0A { answer.removeLast() }
            output.append(answer)
        case .line(let bytes):
            let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            guard daemon.isConnected || daemon.connection != nil else {
                log("flywheel connect: flywheeld at \(daemon.path) is away; dropped \(String(decoding: bytes.prefix(200), as: UTF8.self))")
                return
            }
            if daemon.send(bytes), !blank { sent += 1 }
        }
        balance()
    }

    /// The input ended: the answers still due are waited for, and what is queued for standard
    /// output is written, before the loop stops (``finishIfDrained()``).
    private func inputEnded() {
        if daemon.connection == nil { sent = answered }
        drainUntil = MonotonicClock.now() + Self.drainNanoseconds
        finishIfDrained()
    }

    func finishIfDrained() {
        guard drainUntil != nil else { return }
        if answered >= sent, output.isEmpty { loop.stop() }
    }

    /// The drain's deadline as a part of the loop.
    final class DrainTimer: SessionPart {
        unowned let session: ConnectSession
        init(session: ConnectSession) { self.session = session }
        var pollRequest: pollfd? { nil }
        var deadline: Nanoseconds? { session.drainUntil }
        func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {}
        func due(at now: Nanoseconds) {
            let waiting = session.sent - session.answered
            if waiting > 0 { session.log("flywheel connect: \(waiting) answers did not come within 2 s of the end of the input.") }
            session.loop.stop()
        }
    }
}
