import FlywheelCore
import Glibc

/// The clients of the socket: accepts them, reads their command lines, and writes every message
/// to every client that wants it, through a bounded queue each. A slow client never delays
/// another: writes are non-blocking and each client's queue is its own.
public final class SocketServer {
    let loop: EventLoop
    let listener: UnixListener
    var clients: [Int32: ClientConnection] = [:]
    /// The same clients in the order they came: what a broadcast walks.
    /// (Not checked for exclusivity at run time: read once a broadcast, on the loop's thread.)
    @exclusivity(unchecked) var clientList: [ClientConnection] = []
    /// Discrete messages a client may have queued before it is disconnected.
    @exclusivity(unchecked) public var queueLimit: Int  // read for every message broadcast: unchecked, as `clientList`
    /// Clients served at once; one more is told so and closed.
    public var clientLimit = 256
    /// A descriptor held in reserve: when the process runs out, it is freed for a moment to accept
    /// and refuse a client, so a full table never leaves the listener spinning.
    var reserveFD: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    /// Answers a command line: the reply for the sender and messages for everyone.
    public var onCommand: (ClientCommand, Nanoseconds) -> (reply: ServerMessage, broadcast: [ServerMessage]) = { _, t in
        (DaemonCore.error(.unavailable, "No daemon is attached.", at: t), [])
    }
    /// The banner for a new client.
    public var hello: (Nanoseconds) -> ServerMessage = { t in DaemonCore.error(.unavailable, "No daemon is attached.", at: t) }
    /// Called after clients' watch settings may have changed (frames wanted or not).
    public var onSubscriptionsChanged: () -> Void = {}
    /// What one client may have read and handled per window (``readWindowNanoseconds``): bytes,
    /// each command line counting as ``commandCost`` (16 KiB per 10 ms: 1.6 MB/s or 1,600
    /// commands a second, far beyond any honest client; what a flooding neighbour costs a quiet
    /// client's latency: Tests/Benchmarks/BENCHMARKS.md).
    public var bytesPerWindow = 16 * 1024
    /// The pacing window.
    public var readWindowNanoseconds: Nanoseconds = 10_000_000
    /// Clients paused until their window ends, and the timer that resumes them.
    var pausedClients: [ClientConnection] = []
    var pacingTimer: WakeTimer?
    /// How long a client may stay held back (its answers filling more than half its queue, none
    /// of its commands handled meanwhile: ClientBackpressure.swift) before it is disconnected with
    /// `queue-overflow`: a reader drains it in milliseconds, a client that never reads is let go.
    public var holdBackLimitNanoseconds: Nanoseconds = 5_000_000_000
    /// Clients held back, and the timer (armed only while there are any) that lets them go.
    var heldBackClients: [ClientConnection] = []
    var holdBackTimer: WakeTimer?

    /// Serves `listener` on `loop`.
    public init(loop: EventLoop, listener: UnixListener, queueLimit: Int = 1024) throws(SystemError) {
        self.loop = loop
        self.listener = listener
        self.queueLimit = queueLimit
        try loop.register(listener.fd, interest: .readable) { [unowned self] _ in self.acceptAll() }
        pacingTimer = try WakeTimer(loop: loop) { [unowned self] in self.resumePaused() }
        holdBackTimer = try WakeTimer(loop: loop, named: "the socket server's hold-back timer") { [unowned self] in self.expireHeldBack() }
    }

    /// How many clients are connected and served.
    public var clientCount: Int { servingCount }

    /// Whether any client wants frames.
    public var anyoneWantsFrames: Bool { clients.values.contains { $0.subscription.frames } }

    func acceptAll() {
        while true {
            let fd: Int32?
            do { fd = try listener.accept() } catch {
                // Out of descriptors: refuse the waiting client through the reserve. Linux says EMFILE
                // even with nobody waiting, so stop once the reserve finds no one.
                if (error.errno == EMFILE || error.errno == ENFILE) && refuseWithReserve() { continue }
                return
            }
            guard let fd else { return }
            if servingCount >= clientLimit {
                refuse(fd, "flywheeld serves at most \(clientLimit) clients; try again later.")
                continue
            }
            let client = ClientConnection(fd: fd)
            clients[fd] = client
            do {
                try loop.register(fd, interest: .readable) { [unowned self] ready in self.service(fd, ready) }
            } catch {
                Glibc.close(fd)
                clients[fd] = nil
                continue
            }
            clientList.append(client)
            send(hello(loop.clock.now()), to: client)
            onSubscriptionsChanged()
        }
    }

    func service(_ fd: Int32, _ ready: EventLoop.Readiness) {
        guard let client = clients[fd] else { return }
        if ready.contains(.writable) { flush(client) }
        guard clients[fd] != nil else { return }
        // Held back, it is not read: a peer gone altogether would otherwise be heard of again and again.
        if ready.contains(.error) || ((client.readClosed || client.heldBackSince != nil) && ready.contains(.closed)) {
            drop(client)
            return
        }
        // Only a client with lines waiting or something to read is paced or held back: one that only
        // listens (a writable event) is never held back for what broadcasts queued for it.
        let hasLines = client.unhandledStart < client.unhandled.count
        guard hasLines || (!client.readClosed && !ready.isDisjoint(with: [.readable, .hangup, .closed])) else { return }
        guard mayProceed(client) else {
            if ready.contains(.closed) && client.paused { unwatch(client) }  // paused: watched again when its window ends
            return
        }
        // Lines read before come first: nothing more is read from it until they are handled.
        if hasLines {
            handleSome(client)
            return
        }
        // One read of at most ClientConnection.readBudget bytes per turn: the loop comes back for
        // the rest after the others have had theirs.
        switch client.read(into: &scratch) {
        case .closed:
            // Shut for sending, perhaps still listening (a half-close after `watch`): keep it
            // until a write fails or it closes altogether.
            if ready.contains(.closed) { drop(client) } else { updateInterest(client) }
        case .tooLong:
            let now = loop.clock.now()
            send(DaemonCore.error(.lineTooLong, "A line over 64 KiB was received; closing the connection.", at: now), to: client)
            beginClosing(client)
            flush(client)
        case .lines(let lines):
            client.unhandled = lines
            client.unhandledStart = 0
            handleSome(client)
        }
    }

    /// The buffer every client's read goes through (one for all of them, not one each).
    var scratch = [UInt8](repeating: 0, count: ClientConnection.readBudget)

    /// Command lines handled for one client per loop turn: the rest wait for the next turn, after
    /// the other clients and the input have been served, so a burst of commands costs its
    /// neighbours at most this many commands' work at a time.
    public static let linesPerTurn = 4

    /// Handles the client's next ``linesPerTurn`` unhandled lines, then sends the state changes
    /// they broadcast (each the latest of its kind), and asks the loop to come back for the rest.
    func handleSome(_ client: ClientConnection) {
        guard mayProceed(client) else { return }  // the pacing timer comes back for the rest
        let end = min(client.unhandled.count, client.unhandledStart + Self.linesPerTurn)
        while client.unhandledStart < end, clients[client.fd] === client {
            let line = client.unhandled[client.unhandledStart]
            client.unhandledStart += 1
            client.windowUsed += Self.commandCost
            handle(line, from: client)
        }
        if client.unhandledStart >= client.unhandled.count {
            client.unhandled = []
            client.unhandledStart = 0
        } else {
            comeBack(for: client)
        }
        let changes = stateChanges
        stateChanges = []
        broadcast(changes)
    }

    /// State changes commands broadcast in this turn, the latest of each kind (coalescing key).
    var stateChanges: [ServerMessage] = []

    /// Tells a client it cannot be served (best effort, non-blocking) and closes it.
    func refuse(_ fd: Int32, _ message: String) {
        let bytes = DaemonCore.error(.tooManyClients, message, at: loop.clock.now()).bytes(seq: 1)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.close(fd)
    }

    /// Out of descriptors: free the reserve, accept the waiting client, refuse it, take the reserve
    /// back. Returns whether a client was refused.
    func refuseWithReserve() -> Bool {
        guard reserveFD >= 0 else { return false }
        Glibc.close(reserveFD)
        let waiting = try? listener.accept()
        if let waiting { refuse(waiting, "flywheeld has run out of file descriptors; try again later.") }
        reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return waiting != nil
    }

    func handle(_ line: [UInt8], from client: ClientConnection) {
        guard clients[client.fd] === client, !client.closeAfterFlush else { return }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }  // blank lines are keep-alives
        let now = loop.clock.now()
        do {
            let command = try ClientCommand.parse(line)
            if case .watch(let subscription) = command {
                client.subscription = subscription
                onSubscriptionsChanged()
            }
            let (reply, broadcast) = onCommand(command, now)
            send(reply, to: client)
            // What a command changes is state: a burst of `set`s reaches each client as the
            // latest value, never as a queue of stale ones (so it cannot overflow a neighbour),
            // and the changes of one turn's commands are broadcast once, after them.
            for change in broadcast {
                let coalescing = change.coalescing(by: "command:" + change.messageClass.rawValue)
                stateChanges.removeAll { $0.coalescingKey == coalescing.coalescingKey }
                stateChanges.append(coalescing)
            }
        } catch {
            send(DaemonCore.error(error.code, error.message, at: now), to: client)
        }
    }

    /// Sends each message to every client that wants it.
    public func broadcast(_ messages: [ServerMessage]) {
        for message in messages { broadcast(message) }
    }

    /// Sends one message to every client that wants it, from its own bytes.
    func broadcast(_ message: ServerMessage) {
        message.wire.withUnsafeBytes { wire in
            broadcast(wire, seqIndex: message.seqIndex, messageClass: message.messageClass) { message }
        }
    }

    /// Sends each message of a turn to every client that wants it; a client that must queue one
    /// gets a copy of it then.
    package func broadcast(_ outbox: Outbox) {
        // The lines are sent from the outbox's own bytes: lent out for the broadcast, so nothing
        // the sending reaches (a client dropped, its subscriptions changed) can change it meanwhile.
        outbox.lendEach { wire, seqIndex, messageClass, message in
            broadcast(wire, seqIndex: seqIndex, messageClass: messageClass, message: message)
        }
    }

    /// Sends one message, its bytes `wire` with the seq at `seqIndex`, to every client that wants
    /// it: laid out once for every client, so each delivered line costs its digits and one call.
    /// `message` is asked for only when a client must keep it.
    @inline(__always)
    func broadcast(_ wire: UnsafeRawBufferPointer, seqIndex: Int, messageClass: MessageClass, message: () -> ServerMessage) {
        let everyone = clientList  // as it is now: a client dropped on the way is skipped
        OutgoingLine.with(wire, seqIndex: seqIndex) { line in
            // `everyone` holds each client for the loop: lent to the send unretained.
            everyone.forEachUnretained { client in
                if client.sendsAtOnce(messageClass) {
                    // The usual case, one test: written at once, nothing queued.
                    let result = client.sendAtOnce(as: &line, message: message)
                    if result != .sent { finish(result, to: client, message: message) }
                } else if client.wants(messageClass) {
                    send(as: &line, to: client, message: message)
                }
            }
        }
    }

    func send(_ message: ServerMessage, to client: ClientConnection) {
        OutgoingLine.with(message) { send(as: &$0, to: client) { message } }
    }

    /// Sends the message laid out as `line` to `client`: at once when nothing waits before it,
    /// else queued behind what does (`message` is asked for then). Not on a broadcast's usual
    /// path (``ClientConnection/sendsAtOnce(_:)``): kept out of its loop.
    @inline(never)
    func send(as line: inout OutgoingLine, to client: ClientConnection, message: () -> ServerMessage) {
        guard !client.dropped, !client.closeAfterFlush else { return }
        finish(client.sendNow(as: &line, message: message), to: client, message: message)
    }

    /// After a send that did not write the whole line: the rest queued (partly sent) or the line
    /// queued (not sent), then as much written as the socket takes.
    @inline(never)
    func finish(_ result: ClientConnection.SendNowResult, to client: ClientConnection, message: () -> ServerMessage) {
        switch result {
        case .sent: return
        case .partlySent: break
        case .notSent:
            if !client.enqueue(message(), limit: queueLimit) { overflow(client) }
        }
        flush(client)
    }

    /// The client stopped reading: drop what it has not started to receive, queue one error, send
    /// nothing more, and close once the error is out; its slot is free at once.
    func overflow(_ client: ClientConnection, saying sentence: String? = nil) {
        let inFlight = client.offset > 0 ? Array(client.queue.prefix(1)) : []
        client.queue = inFlight
        client.discreteQueued = inFlight.filter(\.counted).count
        client.seqDigits.countUp()
        client.queue.append(ClientConnection.Pending(message: DaemonCore.error(
            .queueOverflow, sentence ?? "This client stopped reading and \(queueLimit) messages are waiting; disconnecting it.",
            at: loop.clock.now()), seq: client.seq, counted: true))
        beginClosing(client)
    }

    /// Writes what the client has queued; EPOLLOUT is asked for only while a backlog waits, so a
    /// delivered line costs one write and nothing else.
    func flush(_ client: ClientConnection) {
        // Dropped on the way (closing it found as many being closed as may be): its descriptor is
        // closed, and a write to it would be a write to a closed descriptor.
        guard !client.dropped else { return }
        switch client.flush() {
        case .done:
            if client.closeAfterFlush { drop(client) } else { updateInterest(client) }
        case .blocked:
            updateInterest(client)
        case .failed:
            drop(client)
        }
    }

    /// Tells the loop what the client needs: readable until it shut its side (not while paused or
    /// held back; a held-back client that has read enough is released first), writable while a
    /// backlog waits. Changes the registration only when that differs from what it is.
    func updateInterest(_ client: ClientConnection) {
        guard !client.unwatched else { return }  // out of the loop until its window ends (watchAgain)
        releaseIfDrained(client)
        let wantsWrite = client.hasBacklog
        let wantsRead = !client.readClosed && !client.paused && client.heldBackSince == nil
        guard wantsWrite != client.writeArmed || wantsRead != client.readArmed else { return }
        var interest: EventLoop.Readiness = []
        if wantsRead { interest.insert(.readable) }
        if wantsWrite { interest.insert(.writable) }
        do {
            try loop.modify(client.fd, interest: interest)
            client.writeArmed = wantsWrite
            client.readArmed = wantsRead
        } catch {
            drop(client)  // ENOMEM: the loop cannot watch it any more
        }
    }

    /// Clients being closed: told why, their last message still being written. They hold no
    /// serving slot, are not read and get nothing more; at most `clientLimit` of them wait for a
    /// reader that never comes (more are closed at once).
    var closingCount = 0

    /// How many clients are served (not counting those being closed).
    var servingCount: Int { clients.count - closingCount }

    func beginClosing(_ client: ClientConnection) {
        guard !client.closeAfterFlush else { return }
        if closingCount >= clientLimit {
            drop(client)
            return
        }
        client.closeAfterFlush = true
        client.readClosed = true
        closingCount += 1
        // Nothing it sends is read any more: shutting our receiving side makes its writes fail
        // (EPIPE) instead of blocking a client that writes before it reads. ENOTCONN: already gone.
        _ = try? Syscall.call("shutdown", "client \(client.fd)") { Glibc.shutdown(client.fd, Int32(SHUT_RD)) }
        updateInterest(client)
    }

    func drop(_ client: ClientConnection) {
        guard clients[client.fd] === client else { return }
        client.dropped = true
        clientList.removeAll { $0 === client }
        if client.heldBackSince != nil {
            heldBackClients.removeAll { $0 === client }
            armHoldBack()
        }
        if client.closeAfterFlush { closingCount -= 1 }
        loop.unregister(client.fd)
        clients[client.fd] = nil
        Glibc.close(client.fd)
        onSubscriptionsChanged()
    }

    /// Closes every client and the listener (removing its socket file if this process made it).
    public func shutdown() {
        for client in Array(clients.values) { drop(client) }
        pausedClients = []
        pacingTimer?.close()
        pacingTimer = nil
        heldBackClients = []
        holdBackTimer?.close()
        holdBackTimer = nil
        loop.unregister(listener.fd)
        listener.close()
    }
}
