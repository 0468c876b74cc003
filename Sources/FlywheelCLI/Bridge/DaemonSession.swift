import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// A client of flywheeld that outlives the daemon: `flywheel watch` and `flywheel connect`. Every
/// line the daemon sends goes to `deliver`. When the daemon goes away (a restart), it says so on
/// standard error and connects again with backoff (``ReconnectBackoff``), sending `request` (the
/// watch command) on each connection. With an `input`, lines read from it go to the daemon, and its
/// end of file ends the session; lines that come while the daemon is away are dropped, saying so.
/// Stops cleanly on SIGTERM or SIGINT.
final class DaemonSession {
    let path: String
    let name: String
    let request: String?
    let deliver: (String) -> Void
    let log: (String) -> Void
    private var input: LineInput?
    private var daemon: LineSocket?
    private var backoff = ReconnectBackoff()

    /// Connects for the first time: a daemon that is not there is an error the user sees at once.
    init(
        path: String, name: String, request: String?, input: LineInput? = nil,
        deliver: @escaping (String) -> Void, log: @escaping (String) -> Void
    ) throws(ToolError) {
        self.path = path
        self.name = name
        self.request = request
        self.input = input
        self.deliver = deliver
        self.log = log
        do { daemon = try open() } catch { throw SocketOption.unreachable(path, error.description) }
    }

    /// A new connection, asked for `request`.
    private func open() throws(SystemError) -> LineSocket {
        let socket = try LineSocket(connectingTo: path)
        if let request { try socket.send(request) }
        return socket
    }

    private func reconnect() {
        guard daemon == nil, backoff.mayTry(at: MonotonicClock.now()) else { return }
        do {
            daemon = try open()
            backoff.succeeded()
            log("\(name): reconnected to flywheeld at \(path).")
        } catch {
            drop(error.description)
        }
    }

    /// The connection failed or ended: the next attempt waits twice as long, up to 10 s.
    private func drop(_ reason: String) {
        daemon = nil
        log("\(name): flywheeld at \(path): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
    }

    /// Runs until SIGTERM, SIGINT or the input's end of file.
    func run() throws(ToolError) {
        let signals: SignalSource
        do { signals = try SignalSource([SIGTERM, SIGINT]) } catch { throw ToolError(error) }
        while true {
            reconnect()
            var fds = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
            var daemonIndex: Int?, inputIndex: Int?
            if let daemon {
                daemonIndex = fds.count
                fds.append(pollfd(fd: daemon.fd, events: Int16(POLLIN), revents: 0))
            }
            if let input {
                inputIndex = fds.count
                fds.append(pollfd(fd: input.fd, events: Int16(POLLIN), revents: 0))
            }
            let timeout = daemon == nil ? backoff.pollTimeoutMilliseconds(at: MonotonicClock.now()) : -1
            do {
                _ = try Syscall.call("poll", "flywheeld's socket \(path)") { poll(&fds, nfds_t(fds.count), timeout) }
            } catch { throw ToolError(error) }
            if fds[0].revents != 0, !signals.drain().isEmpty { return }
            if let daemon, let daemonIndex, fds[daemonIndex].revents != 0 {
                do {
                    guard try daemon.fill() else { drop("flywheeld closed the connection"); continue }
                    while let line = daemon.bufferedLine() { deliver(line) }
                } catch { drop(error.description) }
            }
            if let source = input, let inputIndex, fds[inputIndex].revents != 0 {
                let open: Bool
                do { open = try source.fill() } catch { throw ToolError(error) }
                while let line = source.bufferedLine() { forward(line) }
                if !open { return }
            }
        }
    }

    /// Sends one input line to the daemon, or says it is dropped while the daemon is away.
    private func forward(_ line: String) {
        guard let daemon else {
            log("\(name): flywheeld at \(path) is away; dropped \(line)")
            return
        }
        do { try daemon.send(line) } catch { drop(error.description) }
    }
}
