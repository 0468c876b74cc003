import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// A bridge's connection to flywheeld, on the bridge's ``SessionLoop``: it outlives the daemon.
/// On each connection it sends `request` (a `watch` command, a `get`), then hands every line the
/// daemon sends to `onLine`. When the daemon goes away (a restart), it says so on standard error
/// and connects again with backoff (``ReconnectBackoff``). Reads and writes never wait: what the
/// daemon has not read yet waits in the connection's bounded queue.
final class DaemonLink: SessionPart {
    let path: String
    /// The bridge's name for messages (`flywheel watch`).
    let name: String
    /// Lines sent on each new connection.
    var request: [String]
    let log: (String) -> Void
    /// Each line the daemon sends.
    var onLine: ([UInt8]) -> Void = { _ in }
    /// A connection was made (`first`: the bridge's first). By default, a later one is said.
    lazy var onConnected: (_ first: Bool) -> Void = { [unowned self] first in
        if !first { log("\(name): reconnected to flywheeld at \(path).") }
    }
    /// The connection ended (before the backoff's message is logged).
    var onDropped: () -> Void = {}
    /// While true, the daemon's lines are not read (its output waits: the bridge's own output is full).
    var readPaused = false
    private(set) var connection: StreamConnection?
    private var backoff = ReconnectBackoff()
    private var connections = 0

    init(path: String, name: String, request: [String], log: @escaping (String) -> Void) {
        self.path = path
        self.name = name
        self.request = request
        self.log = log
    }

    /// Whether the daemon is connected (a connect under way is not).
    var isConnected: Bool { connection.map { !$0.isConnecting } ?? false }

    /// Connects for the first time: a daemon that is not there is an error the user sees at once.
    func connectNow() throws(ToolError) {
        do { try open(at: MonotonicClock.now()) } catch { throw SocketOption.unreachable(path, error.reason ?? Errno.describe(error.errno)) }
    }

    private func open(at now: Nanoseconds) throws(SystemError) {
        let socket = try StreamConnection(connectingTo: path)
        for line in request { try socket.send(line) }
        connection = socket
        backoff.connected(at: now)
        connections += 1
        onConnected(connections == 1)
    }

    /// Sends a line; false while the daemon is away (or the line could not be queued: the
    /// connection is then dropped).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        guard let connection else { return false }
        do { try connection.send(bytes: bytes) } catch {
            drop(error.description)
            return false
        }
        return true
    }

    @discardableResult
    func send(_ line: String) -> Bool { send(Array(line.utf8)) }

    /// The connection failed or ended: the next attempt waits twice as long, up to 10 s.
    func drop(_ reason: String) {
        guard connection != nil else { return }
        connection = nil
        onDropped()
        log("\(name): flywheeld at \(path): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
    }

    var pollRequest: pollfd? {
        guard let connection else { return nil }
        var events = connection.pollEvents
        if readPaused { events &= ~Int16(POLLIN) }
        return pollfd(fd: connection.fd, events: events, revents: 0)
    }

    var deadline: Nanoseconds? { connection == nil ? backoff.nextAttemptNanoseconds : nil }

    func due(at now: Nanoseconds) {
        guard connection == nil, backoff.mayTry(at: now) else { return }
        do {
            try open(at: now)
        } catch {
            log("\(name): flywheeld at \(path): \(ReconnectBackoff.clause(error.description)); \(backoff.failed(at: now))")
        }
    }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard let connection, connection.fd == fd else { return }
        do {
            if connection.isConnecting { try connection.finishConnecting() }
            if revents & Int16(POLLOUT) != 0 { try connection.flush() }
        } catch {
            drop(error.description)
            return
        }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !readPaused else { return }
        let open = connection.receive { line in
            switch line {
            case .line(let bytes): onLine(bytes)
            case .tooLong: log("\(name): flywheeld at \(path) sent a line over 64 KiB; it was dropped.")
            }
        }
        if !open { drop(connection.lastError?.description ?? "flywheeld closed the connection") }
    }
}
