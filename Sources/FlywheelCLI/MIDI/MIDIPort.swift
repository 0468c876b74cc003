import FlywheelCore
import FlywheelIO
import Glibc

/// A raw MIDI port (or a FIFO standing in for one) on the bridges' ``SessionLoop``: opened and
/// written without ever waiting. Messages wait in a bounded queue (``maximumQueuedBytes``, about
/// a second of a 31.25 kbaud port) until the port takes them; a message that does not fit is
/// dropped whole, never cut, and said once until the port drains. A port that fails (unplugged,
/// its reader gone) is said once, closed, and reopened with backoff; a FIFO with no reader yet
/// is waited for the same way.
final class MIDIPort: SessionPart {
    /// Bytes held for the port at most (4 KiB).
    static let maximumQueuedBytes = 4096

    let path: String
    let log: (String) -> Void
    /// Called after the port was opened again (the clock sends Start).
    var onReopened: () -> Void = {}
    private(set) var fd: Int32?
    private var queue: [UInt8] = []
    private var backoff = ReconnectBackoff()
    private var saidFull = false
    private var saidWaiting = false
    /// Messages dropped because the port took nothing, for the log.
    private(set) var dropped = 0

    init(path: String, log: @escaping (String) -> Void) {
        self.path = path
        self.log = log
    }

    deinit { if let fd { close(fd) } }

    /// Opens the port for the first time: a path that is not there (or may not be written) is an
    /// error the user sees at once; a FIFO without a reader yet is waited for.
    func openFirst() throws(SystemError) {
        do { try open() } catch where error.errno == ENXIO {
            log("flywheel midi: \(path) has no reader yet (\(Errno.describe(ENXIO))); waiting for one.")
            saidWaiting = true
            _ = backoff.failed(at: MonotonicClock.now())
        }
    }

    private func open() throws(SystemError) {
        fd = try Syscall.call("open", path) { Glibc.open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
    }

    /// Queues one message (whole, or not at all) and writes what the port takes now.
    func write(_ message: [UInt8]) {
        guard !message.isEmpty, fd != nil else { return }
        guard queue.count + message.count <= Self.maximumQueuedBytes else {
            dropped += 1
            if !saidFull {
                saidFull = true
                log("flywheel midi: \(path) takes no bytes (\(queue.count) waiting); dropping messages until it does.")
            }
            return
        }
        queue += message
        flush()
    }

    private func flush() {
        guard let fd, !queue.isEmpty else { return }
        do {
            let result = try Syscall.nonBlocking("write", path) { queue.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            if case .processed(let written) = result { queue.removeFirst(written) }
            if queue.isEmpty, saidFull {
                saidFull = false
                log("flywheel midi: \(path) takes bytes again; \(dropped) messages were dropped.")
            }
        } catch {
            close(fd)
            self.fd = nil
            queue = []
            log("flywheel midi: \(ReconnectBackoff.clause(error.description)); reopening \(path), \(backoff.failed(at: MonotonicClock.now()))")
        }
    }

    var pollRequest: pollfd? {
        guard let fd, !queue.isEmpty else { return nil }
        return pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) { flush() }

    var deadline: Nanoseconds? { fd == nil ? backoff.nextAttemptNanoseconds : nil }

    func due(at now: Nanoseconds) {
        guard fd == nil, backoff.mayTry(at: now) else { return }
        do {
            try open()
            backoff.succeeded()
            log(saidWaiting ? "flywheel midi: \(path) has a reader; writing to it." : "flywheel midi: reopened \(path).")
            saidWaiting = false
            onReopened()
        } catch {
            _ = backoff.failed(at: now)
        }
    }
}
