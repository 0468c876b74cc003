import FlywheelCore

/// Backpressure: a client that writes commands faster than it reads their answers is held back
/// instead of overflowing. Once more than half of its queue (``SocketServer/queueLimit``) waits,
/// none of its lines are handled and nothing more is read from it (its bytes wait in the kernel,
/// so it blocks in its own `write`; it keeps receiving); when it has read its queue down to a
/// quarter it is served again. Held back for ``SocketServer/holdBackLimitNanoseconds`` without
/// getting there, it is disconnected with `queue-overflow`, so a client that never reads cannot
/// keep its slot. The timer behind that is armed only while some client is held back.
extension SocketServer {
    /// The queue (discrete messages) above which a client's lines wait: half the limit, so what a
    /// turn's lines and the broadcasts meanwhile add still fit.
    var holdBackAbove: Int { queueLimit / 2 }

    /// The queue at or below which a held-back client is served again: a quarter of the limit.
    var releaseAtOrBelow: Int { queueLimit / 4 }

    /// Whether `client` is held back now: it was, or its queue is over ``holdBackAbove`` (then it
    /// is held back from now on, its read interest dropped and the limit's timer armed).
    func holdsBack(_ client: ClientConnection) -> Bool {
        if client.heldBackSince != nil { return true }
        // A client being closed is read no more anyway: its last error is not to be replaced.
        guard client.discreteQueued > holdBackAbove, !client.closeAfterFlush else { return false }
        client.heldBackSince = loop.clock.now()
        heldBackClients.append(client)
        updateInterest(client)
        armHoldBack()
        return true
    }

    /// Serves a held-back client again once it has read its queue down to ``releaseAtOrBelow``
    /// (called whenever its interest is updated, as after every write to it): its waiting lines
    /// are handled on the next turn, and its read interest comes back with this update.
    func releaseIfDrained(_ client: ClientConnection) {
        guard client.heldBackSince != nil, client.discreteQueued <= releaseAtOrBelow else { return }
        client.heldBackSince = nil
        heldBackClients.removeAll { $0 === client }
        armHoldBack()
        comeBack(for: client)
    }

    /// Asks the loop to come back for the client's unhandled lines on the next turn (once).
    func comeBack(for client: ClientConnection) {
        guard client.unhandledStart < client.unhandled.count, !client.comingBack, clients[client.fd] === client else { return }
        client.comingBack = true
        loop.soon { [weak self, weak client] in
            guard let self, let client, self.clients[client.fd] === client else { return }
            client.comingBack = false
            if client.unhandledStart < client.unhandled.count, !client.paused { self.handleSome(client) }
        }
    }

    /// The limit's timer fired: clients held back that long are disconnected with
    /// `queue-overflow` (their slots free at once); the others wait on.
    func expireHeldBack() {
        let now = loop.clock.now()
        let expired = heldBackClients.filter { $0.dropped || now - ($0.heldBackSince ?? now) >= holdBackLimitNanoseconds }
        heldBackClients.removeAll { client in expired.contains { $0 === client } }
        for client in expired where !client.dropped {
            client.heldBackSince = nil
            overflow(client, saying: "This client has not read its answers for \(holdBackLimitNanoseconds / 1_000_000) ms; disconnecting it.")
            flush(client)
        }
        armHoldBack()
    }

    /// Arms the limit's timer for the first held-back client's deadline, or disarms it.
    func armHoldBack() {
        holdBackTimer?.arm(at: heldBackClients.compactMap { $0.heldBackSince.map { $0 + holdBackLimitNanoseconds } }.min())
    }
}
