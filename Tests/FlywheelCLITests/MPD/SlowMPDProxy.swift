import Glibc
import Synchronization

/// A slow player in front of a real MPD: a Unix socket that forwards each connection to MPD,
/// holding every answer back by `delayMilliseconds` (as a busy or remote player answers late),
/// and counts the `setvol` commands that pass through it (keeping their volumes).
final class SlowMPDProxy: Sendable {
    let path: String
    let listener: Int32
    let setvols = Atomic<Int>(0)
    private let volumes = Mutex<[String]>([])

    /// The volume of each `setvol` that passed, in order.
    var setvolVolumes: [String] { volumes.withLock { $0 } }

    init(path: String, mpdPath: String, delayMilliseconds: Int) throws {
        self.path = path
        listener = try Self.listener(path)
        Self.relayEach(listener, to: mpdPath) { [self] client, upstream in
            Self.thread { self.forward(from: client, to: upstream, delayMilliseconds: 0, counting: true) }
            Self.thread { self.forward(from: upstream, to: client, delayMilliseconds: delayMilliseconds, counting: false) }
        }
    }

    /// A Unix socket listening on `path`.
    static func listener(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard withUnixAddress(path, { bind(fd, $0, $1) }) == 0, listen(fd, 4) == 0 else {
            throw TestFailure("the proxy could not listen on \(path): errno \(errno)")
        }
        return fd
    }

    /// On a thread of its own until `listener` is shut down: each connection accepted, connected
    /// to the Unix socket at `upstreamPath`, both ends handed to `relay`.
    static func relayEach(_ listener: Int32, to upstreamPath: String, _ relay: @escaping @Sendable (_ client: Int32, _ upstream: Int32) -> Void) {
        thread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { if errno == EINTR { continue } else { return } }
                let upstream = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard withUnixAddress(upstreamPath, { connect(upstream, $0, $1) }) == 0 else { close(client); close(upstream); continue }
                relay(client, upstream)
            }
        }
    }

    /// Writes all of `bytes` to `fd` (less when the peer has gone).
    static func send(_ bytes: ArraySlice<UInt8>, to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Copies bytes until either side closes (then closes both), counting `setvol` lines or
    /// delaying each chunk.
    func forward(from source: Int32, to destination: Int32, delayMilliseconds: Int, counting: Bool) {
        var pending: [UInt8] = []
        Self.copy(from: source, to: destination) { chunk in
            if counting {
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let prefix = Array("setvol ".utf8)
                    if pending[..<newline].starts(with: prefix) {
                        volumes.withLock { $0.append(String(decoding: pending[prefix.count..<newline], as: UTF8.self)) }
                        setvols.add(1, ordering: .relaxed)
                    }
                    pending.removeSubrange(...newline)
                }
            }
            if delayMilliseconds > 0 { usleep(useconds_t(delayMilliseconds * 1000)) }
            Self.send(chunk, to: destination)
        }
    }

    /// Reads `source` (at most 4 KiB at a time, each read handed to `body`) until either side
    /// closes, then closes both.
    static func copy(from source: Int32, to destination: Int32, _ body: (ArraySlice<UInt8>) -> Void) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(source, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            body(chunk[0..<n])
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }

    /// Runs `body` on a thread of its own (each forwarder blocks in `read`, so a thread pool
    /// sized to the cores would hold the others back).
    static func thread(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        var handle = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(&handle, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_detach(handle)
    }

    /// Stops accepting (connections already made end when their peers close).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
