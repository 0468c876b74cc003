import FlywheelCore
import Glibc

/// The clients of the socket: accepts them, reads their command lines, and writes every message
/// to every client that wants it, through a bounded queue each. A slow client never delays
/// another: writes are non-blocking and each client's queue is its own.
public final class SocketServer {
    let loop: EventLoop
    let listener: UnixListener
    var clients: [Int32: ClientConnection] = [:]
    /// Discrete messages a client may have queued before it is disconnected.
    public var queueLimit: Int
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

    /// Serves `listener` on `loop`.
    public init(loop: EventLoop, listener: UnixListener, queueLimit: Int = 1024) throws(SystemError) {
        self.loop = loop
        self.listener = listener
        self.queueLimit = queueLimit
        try loop.register(listener.fd, interest: .readable) { [unowned self] _ in self.acceptAll() }
    }

    /// How many clients are connected.
    public var clientCount: Int { clients.count }

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
            if clients.count >= clientLimit {
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
            send(hello(MonotonicClock.now()), to: client)
            onSubscriptionsChanged()
        }
    }

    func service(_ fd: Int32, _ ready: EventLoop.Readiness) {
        guard let client = clients[fd] else { return }
        if ready.contains(.writable) { flush(client) }
        guard clients[fd] != nil else { return }
        if ready.contains(.readable) || ready.contains(.hangup) || ready.contains(.error) {
            switch client.read() {
            case .closed:
                drop(client)
            case .tooLong:
                let now = MonotonicClock.now()
                send(DaemonCore.error(.lineTooLong, "A line over 64 KiB was received; closing the connection.", at: now), to: client)
                client.closeAfterFlush = true
                flush(client)
            case .lines(let lines):
                for line in lines { handle(line, from: client) }
            }
        }
    }

    /// Tells a client it cannot be served (best effort, non-blocking) and closes it.
    func refuse(_ fd: Int32, _ message: String) {
        let bytes = DaemonCore.error(.tooManyClients, message, at: MonotonicClock.now()).bytes(seq: 1)
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
        guard clients[client.fd] != nil else { return }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }  // blank lines are keep-alives
        let now = MonotonicClock.now()
        do {
            let command = try ClientCommand.parse(line)
            if case .watch(let subscription) = command {
                client.subscription = subscription
                onSubscriptionsChanged()
            }
            let (reply, broadcast) = onCommand(command, now)
            send(reply, to: client)
            self.broadcast(broadcast)
        } catch {
            send(DaemonCore.error(error.code, error.message, at: now), to: client)
        }
    }

    /// Sends each message to every client that wants it.
    public func broadcast(_ messages: [ServerMessage]) {
        for message in messages {
            for client in Array(clients.values) where client.wants(message) { send(message, to: client) }
        }
    }

    func send(_ message: ServerMessage, to client: ClientConnection) {
        guard clients[client.fd] != nil, !client.closeAfterFlush else { return }
        if !client.enqueue(message, limit: queueLimit) {
            // It stopped reading: drop what it has not started to receive, queue one error, send
            // nothing more, and close once the error is out.
            let inFlight = client.offset > 0 ? Array(client.queue.prefix(1)) : []
            client.queue = inFlight
            client.discreteQueued = inFlight.count
            client.seq += 1
            client.queue.append((DaemonCore.error(
                .queueOverflow, "This client stopped reading and \(queueLimit) messages are waiting; disconnecting it.",
                at: MonotonicClock.now()).bytes(seq: client.seq), nil))
            client.closeAfterFlush = true
        }
        flush(client)
    }

    func flush(_ client: ClientConnection) {
        switch client.flush() {
        case .done:
            if client.closeAfterFlush { drop(client) } else { try? loop.modify(client.fd, interest: .readable) }
        case .blocked:
            try? loop.modify(client.fd, interest: [.readable, .writable])
        case .failed:
            drop(client)
        }
    }

    func drop(_ client: ClientConnection) {
        guard clients[client.fd] != nil else { return }
        loop.unregister(client.fd)
        clients[client.fd] = nil
        Glibc.close(client.fd)
        onSubscriptionsChanged()
    }

    /// Closes every client and the listener (removing its socket file if this process made it).
    public func shutdown() {
        for client in Array(clients.values) { drop(client) }
        loop.unregister(listener.fd)
        listener.close()
    }
}
