import CLinux
import FlywheelCore
import Glibc

/// A timer of the socket server's own beside the loop's, armed only while something waits for it:
/// when its paused clients may be read again, or its held-back clients' time is up. A timerfd on
/// CLOCK_MONOTONIC; on a loop whose clock is virtual, a deadline the loop fires once a test has
/// moved the clock to it (``EventLoop/runOnce(timeoutMilliseconds:onTimer:)``).
final class WakeTimer {
    /// The timerfd; -1 on a virtual clock.
    let fd: Int32
    let loop: EventLoop
    /// What it is for, in error messages.
    let name: String
    /// The time it is armed for, if any.
    private(set) var armedAt: Nanoseconds?
    let onExpiry: () -> Void

    init(loop: EventLoop, named name: String = "the socket server's pacing timer", onExpiry: @escaping () -> Void) throws(SystemError) {
        self.loop = loop
        self.name = name
        self.onExpiry = onExpiry
        if case .virtual = loop.clock {
            fd = -1
            loop.wakeTimers.append(self)
            return
        }
        fd = try Syscall.call("timerfd_create", name) {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }
        try loop.register(fd, interest: .readable) { [unowned self] _ in
            var expirations: UInt64 = 0
            // wouldBlock: re-armed between epoll_wait and here; nothing expired.
            guard case .processed? = try? Syscall.nonBlocking("read", self.name, { read(self.fd, &expirations, 8) })
            else { return }
            self.armedAt = nil
            self.onExpiry()
        }
    }

    /// Arms it for the absolute time `deadline` on the loop's clock (or disarms it with nil).
    func arm(at deadline: Nanoseconds?) {
        guard deadline != armedAt else { return }
        armedAt = deadline
        guard fd >= 0 else { return }  // virtual: the loop compares it with the clock
        var spec = EventLoop.timerSpec(at: deadline)
        // EINVAL for a clamped time is impossible: a failure here is a bug.
        do {
            _ = try Syscall.call("timerfd_settime", name) {
                timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
            }
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// On a virtual clock: fires it if the clock has reached its deadline.
    func fireIfDue(at now: Nanoseconds) {
        guard let armedAt, now >= armedAt else { return }
        self.armedAt = nil
        onExpiry()
    }

    func close() {
        guard fd >= 0 else {
            loop.wakeTimers.removeAll { $0 === self }
            return
        }
        loop.unregister(fd)
        Glibc.close(fd)
    }
}

/// Pacing: what one client may make the daemon do per window of time. Each byte read and each
/// command line handled (``commandCost`` bytes) counts against ``SocketServer/bytesPerWindow``;
/// a client that has used it is not read (its unread bytes wait in the kernel, so a flooder
/// blocks in its own `write`) until the window ends. Writes to it go on meanwhile.
extension SocketServer {
    /// What handling one command line counts as, in bytes of the window.
    static let commandCost = 1024

    /// Whether `client` may be read or have lines handled now; if it has used its window, it is
    /// paused (not read) until the window ends, and false; if it is held back (its answers
    /// unread: ClientBackpressure.swift), false.
    func mayProceed(_ client: ClientConnection) -> Bool {
        if client.paused || holdsBack(client) { return false }
        let now = loop.clock.now()
        if now - client.windowStart >= readWindowNanoseconds {
            client.windowStart = now
            client.windowUsed = 0
            return true
        }
        guard client.windowUsed >= bytesPerWindow else { return true }
        client.paused = true
        pausedClients.append(client)
        updateInterest(client)
        armPacing()
        return false
    }

    /// The pacing timer fired: clients whose window has ended are read and served again.
    func resumePaused() {
        let now = loop.clock.now()
        let due = pausedClients.filter { $0.dropped || now - $0.windowStart >= readWindowNanoseconds }
        pausedClients.removeAll { $0.dropped || now - $0.windowStart >= readWindowNanoseconds }
        for client in due where !client.dropped {
            client.paused = false
            client.windowStart = now
            client.windowUsed = 0
            if client.unwatched { watchAgain(client) }
            guard !client.dropped else { continue }
            updateInterest(client)
            if client.unhandledStart < client.unhandled.count { handleSome(client) }
        }
        armPacing()
    }

    /// A paused client that has hung up altogether: the kernel reports EPOLLHUP whatever it is
    /// watched for, so the loop would wake for it turn after turn until its window ends. It leaves
    /// the loop meanwhile, and comes back when the window ends (its unread bytes are read then).
    func unwatch(_ client: ClientConnection) {
        guard !client.unwatched else { return }
        client.unwatched = true
        loop.unregister(client.fd)
    }

    /// Watches a client that ``unwatch(_:)`` took out of the loop again (read interest; the
    /// caller updates the rest).
    func watchAgain(_ client: ClientConnection) {
        client.unwatched = false
        let fd = client.fd
        do {
            try loop.register(fd, interest: .readable) { [unowned self] ready in self.service(fd, ready) }
        } catch {
            drop(client)  // ENOMEM: the loop cannot watch it any more
            return
        }
        client.readArmed = true
        client.writeArmed = false
    }

    func armPacing() {
        pacingTimer?.arm(at: pausedClients.map { $0.windowStart + readWindowNanoseconds }.min())
    }
}
