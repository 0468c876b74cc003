import FlywheelCore
import Glibc

/// A client stream to a Unix socket path or a TCP `host:port`: the one client socket of the
/// bridges and tools. Everything on it is non-blocking — the connect, each read and each write —
/// so the loop that polls it never waits on a peer: lines come out of a bounded ``LineReader``,
/// and lines to send wait in a bounded queue until the peer takes them. A peer that lets the queue
/// pass its bound has stopped reading; that is an error, not more memory.
public final class StreamConnection {
    /// The descriptor, for `poll`.
    public let fd: Int32
    /// What it is connected to, for messages.
    public let address: String
    /// Whether the connect is still under way (the descriptor is polled for writing until it is done).
    public private(set) var isConnecting: Bool
    /// The lines received.
    public var reader: LineReader
    /// Bytes queued for the peer, from `outgoingStart`.
    private var outgoing: [UInt8] = []
    private var outgoingStart = 0
    /// The most bytes the queue holds before the peer counts as not reading.
    public let maximumQueuedBytes: Int
    /// The buffer each read goes into (made once: a bridge reads at every wake).
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    /// Whether the peer closed its side.
    public private(set) var closed = false

    /// Starts connecting to `address` (a path when it contains '/', else `host:port` with
    /// `defaultPort` when no port is given). Fails at once when the path is not there or the
    /// name does not resolve; a TCP connect under way finishes in ``finishConnecting()``.
    public init(
        connectingTo address: String, defaultPort: String = "6600", maximumLineBytes: Int = 65_536, maximumQueuedBytes: Int = 1 << 20
    ) throws(SystemError) {
        self.address = address
        self.maximumQueuedBytes = maximumQueuedBytes
        reader = LineReader(maximumLineBytes: maximumLineBytes)
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        switch NetworkAddress.parse(address, defaultPort: defaultPort) {
        case .path(let path):
            let fd = try Syscall.call("socket", address) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | flags, 0) }
            guard var unix = try? UnixListener.address(path) else {
                Glibc.close(fd)
                throw SystemError(function: "connect", subject: address, errno: ENAMETOOLONG)
            }
            let result = withUnsafePointer(to: &unix) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            // A Unix socket connects at once, or its listener's backlog is full (EAGAIN): both are errors here.
            if result != 0 {
                let error = errno
                Glibc.close(fd)
                throw SystemError(function: "connect", subject: address, errno: error)
            }
            self.fd = fd
            isConnecting = false
        case .host(let host, let port):
            let candidates = try NetworkAddress.resolve(host: host, port: port, socketType: Int32(SOCK_STREAM.rawValue), subject: address)
            var lastError = ECONNREFUSED
            var chosen: (fd: Int32, connecting: Bool)?
            for var candidate in candidates {
                let fd = socket(candidate.family, candidate.socketType | flags, candidate.proto)
                guard fd >= 0 else { lastError = errno; continue }
                let result = withUnsafePointer(to: &candidate.storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, candidate.length) }
                }
                if result == 0 { chosen = (fd, false); break }
                if errno == EINPROGRESS { chosen = (fd, true); break }
                lastError = errno
                Glibc.close(fd)
            }
            guard let chosen else { throw SystemError(function: "connect", subject: address, errno: lastError) }
            fd = chosen.fd
            isConnecting = chosen.connecting
        }
    }

    /// Takes over `fd`, a connected stream socket (one end of a socket pair), made non-blocking.
    public init(adopting fd: Int32, address: String, maximumLineBytes: Int = 65_536, maximumQueuedBytes: Int = 1 << 20) {
        self.fd = fd
        self.address = address
        self.maximumQueuedBytes = maximumQueuedBytes
        reader = LineReader(maximumLineBytes: maximumLineBytes)
        isConnecting = false
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { Glibc.close(fd) }

    /// The events to poll for: readable always, writable while connecting or with bytes queued.
    public var pollEvents: Int16 {
        Int16(POLLIN) | (isConnecting || hasQueuedBytes ? Int16(POLLOUT) : 0)
    }

    /// Whether bytes wait for the peer.
    public var hasQueuedBytes: Bool { outgoingStart < outgoing.count }
    /// How many bytes wait for the peer.
    public var queuedByteCount: Int { outgoing.count - outgoingStart }

    /// The connect under way ended (poll said writable): its result.
    public func finishConnecting() throws(SystemError) {
        guard isConnecting else { return }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try Syscall.call("getsockopt", address) { getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) }
        if error != 0 { throw SystemError(function: "connect", subject: address, errno: error) }
        isConnecting = false
    }

    /// Queues `line` and a newline, and writes what the peer takes now.
    public func send(_ line: String) throws(SystemError) {
        try send(bytes: Array(line.utf8))
    }

    /// Queues `bytes` and a newline, and writes what the peer takes now.
    public func send(bytes: [UInt8]) throws(SystemError) {
        try send(raw: bytes + [0x0A])
    }

    /// Queues `bytes` as they are (a binary protocol such as MQTT), and writes what the peer takes now.
    public func send(raw bytes: [UInt8]) throws(SystemError) {
        guard queuedByteCount + bytes.count <= maximumQueuedBytes else {
            throw SystemError(
                function: "send", subject: address, errno: ENOBUFS,
                hint: "It has not read the \(queuedByteCount) bytes already sent.")
        }
        if outgoingStart > 0, outgoingStart >= outgoing.count / 2 {
            outgoing.removeSubrange(..<outgoingStart)
            outgoingStart = 0
        }
        outgoing.append(contentsOf: bytes)
        if !isConnecting { try flush() }
    }

    /// Writes what the peer takes now of the queue (never waits).
    public func flush() throws(SystemError) {
        while outgoingStart < outgoing.count {
            let result = try Syscall.nonBlocking("send", address) {
                outgoing.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + outgoingStart, $0.count - outgoingStart, Int32(MSG_NOSIGNAL)) }
            }
            guard case .processed(let written) = result else { return }
            outgoingStart += written
        }
        outgoing.removeAll(keepingCapacity: outgoing.capacity <= 65_536)
        outgoingStart = 0
    }

    /// Reads what is there (at most `maximumBytes` this time, so that one busy peer cannot hold
    /// the loop), handing each complete line to `line`; false once the peer closed its side (the
    /// rest without a newline is then a last line).
    public func receive(maximumBytes: Int = 256 * 1024, _ line: (LineReader.Line) throws -> Void) rethrows -> Bool {
        let open = try receive(rawMaximumBytes: maximumBytes) { bytes in
            reader.append(bytes)
            while let next = reader.next() { try line(next) }
        }
        if !open {
            reader.finish()
            while let next = reader.next() { try line(next) }
        }
        return open
    }

    /// Reads what is there as bytes (a binary protocol), at most `maximumBytes` this time, handing
    /// each read to `bytes`; false once the peer closed its side (or reset it: ``lastError``).
    public func receive(rawMaximumBytes maximumBytes: Int = 256 * 1024, _ bytes: (ArraySlice<UInt8>) throws -> Void) rethrows -> Bool {
        var total = 0
        while total < maximumBytes {
            let result: IOResult<Int>
            do {
                result = try Syscall.nonBlocking("read", address) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            } catch {
                // A reset connection is the peer gone: the same as its end.
                closed = true
                lastError = error
                return false
            }
            guard case .processed(let count) = result else { return true }
            if count == 0 {
                closed = true
                return false
            }
            total += count
            try bytes(chunk[0..<count])
        }
        return true
    }

    /// The error that ended the last ``receive(maximumBytes:_:)``, if it was not a clean end.
    public private(set) var lastError: SystemError?

    /// Lines received but not yet taken by ``readLine(timeoutMilliseconds:)``.
    private var pendingLines: [LineReader.Line] = []

    /// For one-shot tools (`flywheel send`, `soak`): waits, at most `timeoutMilliseconds` in all,
    /// for the connect, the queued bytes to go out and the next line; nil once the peer closed.
    /// A wait that runs out is ETIMEDOUT.
    public func readLine(timeoutMilliseconds: Int32 = 10_000) throws(SystemError) -> String? {
        let deadline = MonotonicClock.now() + Nanoseconds(timeoutMilliseconds) * 1_000_000
        while true {
            if !pendingLines.isEmpty {
                switch pendingLines.removeFirst() {
                case .line(let bytes): return String(decoding: bytes, as: UTF8.self)
                case .tooLong: continue
                }
            }
            if closed { return nil }
            let remaining = deadline - MonotonicClock.now()
            guard remaining > 0 else { throw SystemError(function: "poll", subject: address, errno: ETIMEDOUT) }
            var entry = pollfd(fd: fd, events: pollEvents, revents: 0)
            let ready = try Syscall.call("poll", address) { poll(&entry, 1, Int32(clamping: (remaining + 999_999) / 1_000_000)) }
            guard ready > 0 else { continue }
            if isConnecting { try finishConnecting() }
            if entry.revents & Int16(POLLOUT) != 0 { try flush() }
            if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let open = receive { pendingLines.append($0) }
                if !open, let lastError { throw lastError }
            }
        }
    }
}
