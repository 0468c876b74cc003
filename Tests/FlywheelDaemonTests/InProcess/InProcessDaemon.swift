import FlywheelCore
@testable import FlywheelDaemon
@testable import FlywheelIO
import Glibc

/// flywheeld's ``Daemon`` in the test's own process, on a ``VirtualClock``: its socket is real,
/// its loop is stepped by the test (one turn never waits), and its timers (the daemon's, and its
/// socket server's pacing and hold-back) fire only when the test moves the clock to their
/// deadlines — as swift-nio's EmbeddedEventLoop does. Nothing sleeps: a frame 8 ms away, a paced
/// client's next window or a held-back client's 5 s limit is virtual time, reached at once.
@MainActor
final class InProcessDaemon {
    let clock = VirtualClock()
    let daemon: Daemon
    let directory: String
    var socketPath: String { directory + "/flywheel.sock" }
    /// What the daemon said (its standard error's lines, without `flywheeld: `), in order.
    var said: [String] { log.lines }
    let log = Said()

    /// The daemon's sentences as they come.
    final class Said {
        var lines: [String] = []
    }

    /// flywheeld's `arguments` (a socket, the repository's profiles and device directories of its
    /// own added, as ``DaemonProcess`` adds them), set up and started.
    init(_ arguments: [String]) throws {
        var template = Array("/tmp/flywheel-inprocess-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HandsError("mkdtemp failed: errno \(errno)") }
        directory = String(cString: made)
        let full = [
            "--socket", directory + "/flywheel.sock", "--hardware", Hands.root + "/hardware", "--input-dir", directory + "/input",
            "--gpio-dir", directory + "/gpio", "--quiet",
        ] + arguments
        guard case .serve(let options) = try DaemonOptions.parse(full) else { throw HandsError("\(full) does not serve") }
        let log = self.log
        daemon = try Daemon(options: options, clock: .virtual(clock), log: { log.lines.append($0) })
        try daemon.start()
    }

    /// Ends serving (the socket closed and removed) and removes the directory.
    func stop() {
        daemon.finish()
        unlink(socketPath + ".lock")
        rmdir(directory)
    }

    /// A client of the socket.
    func connect() throws -> InProcessClient { try InProcessClient(self) }

    /// One turn of the loop: what is ready is served, and the timers fire whose deadlines the
    /// clock has passed. It waits only when told to, and then only for what is real (a socket, a
    /// folder's change), never for virtual time.
    func turn(waitingMilliseconds: Int32 = 0) throws { try daemon.turn(waitingMilliseconds: waitingMilliseconds) }

    /// Moves the clock to the first deadline (the daemon's timer's, or its socket server's pacing
    /// or hold-back timer's) and turns, which fires it; false when nothing is armed.
    func advanceToDeadline() throws -> Bool {
        guard let deadline = daemon.loop.nextDeadline else { return false }
        clock.advance(to: deadline)
        try turn()
        return true
    }
}

/// A client of an ``InProcessDaemon``: it reads without blocking, and while no line has come it
/// turns the daemon's loop, then moves the virtual clock to the next deadline.
@MainActor
final class InProcessClient {
    let fd: Int32
    let served: InProcessDaemon
    /// What has arrived and is not yet returned: `buffer[start...]`.
    var buffer: [UInt8] = []
    var start = 0
    /// Virtual time one ``next()`` may move the clock on before it says nothing more is coming.
    var patienceNanoseconds: Nanoseconds = 600_000_000_000
    /// Turns with nothing ready and no deadline armed, each waiting up to ``idleWaitMilliseconds``
    /// for the socket, before ``next()`` says nothing more is coming.
    static let idleTurns = 25
    static let idleWaitMilliseconds: Int32 = 20

    init(_ served: InProcessDaemon) throws {
        self.served = served
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in served.socketPath.utf8.enumerated() { raw[i] = b } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            // Closed here and only here: `self.fd` is not set, so no deinit closes it again.
            let error = errno
            close(fd)
            throw HandsError("connect to \(served.socketPath) failed: errno \(error)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Virtual time a ``send(_:readingMeanwhile:)`` lets pass while the daemon takes no byte before
    /// it gives up (the daemon holding the client back while nobody reads its answers).
    static let stalledNanoseconds: Nanoseconds = 600_000_000_000

    /// Sends bytes, turning the daemon while the socket's buffer is full and moving the clock to
    /// its next deadline when a turn does not help (the server paces a client's reading; and,
    /// when `readingMeanwhile`, taking in the answers that came meanwhile, as a client reading on
    /// another thread would); false when the daemon has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8], readingMeanwhile: Bool = false) throws -> Bool {
        var offset = 0
        var stalledSince: Nanoseconds?
        var idle = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 {
                offset += n
                stalledSince = nil
                idle = 0
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                if readingMeanwhile { while let count = receive(), count > 0 {} }
                let now = served.clock.now
                guard now - (stalledSince ?? now) < Self.stalledNanoseconds else {
                    throw HandsError("the daemon took no byte of \(bytes.count - offset) in \(Self.stalledNanoseconds / 1_000_000_000) s")
                }
                stalledSince = stalledSince ?? now
                // A turn first (what is ready), then the clock to the next deadline (the pacing's).
                if idle < 2 {
                    idle += 1
                    try served.turn()
                } else if try served.advanceToDeadline() {
                    idle = 0
                } else if idle < Self.idleTurns {
                    idle += 1
                    try served.turn(waitingMilliseconds: Self.idleWaitMilliseconds)
                } else {
                    throw HandsError("the daemon takes no byte of \(bytes.count - offset) and waits for nothing")
                }
            } else {
                return false
            }
        }
        return true
    }

    /// Bytes this client sent that the daemon has not read yet (TIOCOUTQ, SIOCOUTQ for a socket).
    var unreadByDaemon: Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(TIOCOUTQ), &count) == 0 ? Int(count) : -1
    }

    /// Turns the daemon, the clock moved on to its deadlines (its pacing's), until it has read
    /// everything this client sent; false if it has not within 10,000 turns.
    func waitUntilRead() throws -> Bool {
        for _ in 0..<10_000 {
            try served.turn()
            if unreadByDaemon == 0 { return true }
            _ = try served.advanceToDeadline()
        }
        return false
    }

    /// Ends the client's sending side (what `socat` does at the end of its input).
    func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// Whether a ping is answered with a pong next (messages of `passing` classes skipped).
    func pong(passing: Set<String> = ["hello"]) throws -> Bool {
        try send(#"{"cmd":"ping"}"#)
        return try next(where: { !passing.contains($0["class"]?.stringValue ?? "") })?["class"] == .string("pong")
    }

    /// Sends one line.
    @discardableResult
    func send(_ line: String) throws -> Bool { try send(Array((line + "\n").utf8)) }

    /// Reads what has arrived without waiting: nil at the end of the stream, else the byte count.
    func receive() -> Int? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        if n > 0 {
            buffer += chunk[0..<n]
            return n
        }
        return n == 0 || (errno != EAGAIN && errno != EINTR) ? nil : 0
    }

    /// The next line: what has arrived, else the daemon turned until it sends one, the virtual
    /// clock moved to each deadline on the way. Nil at the end of the stream, or when nothing is
    /// armed and nothing comes, or past ``patienceNanoseconds`` of virtual time.
    func nextLine() throws -> [UInt8]? {
        let giveUp = served.clock.now + patienceNanoseconds
        var idle = 0
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if start >= 65536 && start * 2 >= buffer.count {  // the returned lines dropped now and then, not each time
                    buffer.removeSubrange(..<start)
                    start = 0
                }
                return line
            }
            guard let count = receive() else { return nil }
            if count > 0 { continue }
            // Twice round what is ready (an answer may take a turn to read and one to send), then time.
            if idle < 2 {
                idle += 1
                try served.turn()
            } else if served.clock.now < giveUp, try served.advanceToDeadline() {
                idle = 0
            } else if served.clock.now >= giveUp || idle >= Self.idleTurns {
                return nil
            } else {
                idle += 1
                try served.turn(waitingMilliseconds: Self.idleWaitMilliseconds)
            }
        }
    }

    /// The next line parsed as JSON (nil as ``nextLine()`` says).
    func next() throws -> JSONValue? { try nextLine().flatMap { try? JSONParser.parse($0) } }

    /// Reads until a message satisfies `predicate` (returning it) or nothing more comes.
    func next(where predicate: (JSONValue) -> Bool) throws -> JSONValue? {
        while let message = try next() { if predicate(message) { return message } }
        return nil
    }
}
