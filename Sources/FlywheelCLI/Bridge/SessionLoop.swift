import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// One thing a bridge's loop watches: a descriptor to poll, a deadline, or both.
protocol SessionPart: AnyObject {
    /// The descriptor and the events to poll it for now; nil when there is nothing to poll.
    var pollRequest: pollfd? { get }
    /// The CLOCK_MONOTONIC time it next wants to act at, if any.
    var deadline: Nanoseconds? { get }
    /// `poll` reported `revents` on descriptor `fd` (still the part's own unless it changed it meanwhile).
    func ready(fd: Int32, revents: Int16, at now: Nanoseconds)
    /// The deadline passed.
    func due(at now: Nanoseconds)
}

extension SessionPart {
    var deadline: Nanoseconds? { nil }
    func due(at now: Nanoseconds) {}
}

/// The one loop of every bridge (`watch`, `connect`, `mpd`, `osc`, `midi`): the daemon's side,
/// the peer's side and SIGTERM/SIGINT on one `ppoll`, waking at the nearest deadline (a
/// reconnection, a MIDI clock tick, a command's time limit) with nanosecond resolution. Every
/// descriptor on it is non-blocking, so no peer can keep the loop from seeing a signal: SIGTERM
/// ends a bridge within one turn of the loop, whatever its peers do.
final class SessionLoop {
    let signals: SignalSource
    /// The parts, polled in this order.
    var parts: [SessionPart] = []
    /// Set by ``stop()`` or a signal.
    private(set) var stopping = false
    /// Whether a signal ended the loop.
    private(set) var signalled = false
    /// Run before each poll, after the deadlines: flow control between the parts.
    var beforePoll: () -> Void = {}

    /// Blocks SIGTERM and SIGINT into a signalfd, and ignores SIGPIPE (a closed peer is EPIPE,
    /// said, not the end of the process).
    init() throws(ToolError) {
        do { signals = try SignalSource([SIGTERM, SIGINT]) } catch { throw ToolError(error) }
        CurrentProcess.ignoreBrokenPipes()
    }

    /// Ends ``run()`` after the current turn.
    func stop() { stopping = true }

    /// Runs until a signal or ``stop()``.
    func run() throws(ToolError) {
        while !stopping {
            var now = MonotonicClock.now()
            for part in parts {
                if let deadline = part.deadline, deadline <= now { part.due(at: now) }
            }
            beforePoll()
            if stopping { return }
            var fds = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
            var owners: [SessionPart] = []
            for part in parts {
                if let request = part.pollRequest {
                    fds.append(request)
                    owners.append(part)
                }
            }
            let next = parts.compactMap(\.deadline).min()
            do {
                _ = try Poll.wait(&fds, timeoutNanoseconds: next.map { $0 - MonotonicClock.now() }, subject: "the bridge's descriptors")
            } catch { throw ToolError(error) }
            if fds[0].revents != 0, !signals.drain().isEmpty {
                signalled = true
                return
            }
            now = MonotonicClock.now()
            for (index, part) in owners.enumerated() where fds[index + 1].revents != 0 {
                part.ready(fd: fds[index + 1].fd, revents: fds[index + 1].revents, at: now)
            }
        }
    }
}
