import Glibc

/// A line-oriented stream connection to a Unix socket path or a TCP `host:port`, for the MPD
/// bridge: blocking writes, reads that never block once `poll` said data is there.
public final class LineSocket {
    /// The descriptor, for `poll`.
    public let fd: Int32
    /// What it is connected to, for messages.
    public let address: String
    var buffer: [UInt8] = []
    /// Whether the peer closed the connection.
    public private(set) var closed = false

    /// Connects to `address`: a path (containing '/') or `host:port`.
    public init(connectingTo address: String) throws(SystemError) {
        self.address = address
        if address.contains("/") {
            let fd = try Syscall.call("socket", address) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
            guard var unix = try? UnixListener.address(address) else {
                Glibc.close(fd)
                throw SystemError(function: "connect", subject: address, errno: ENAMETOOLONG)
            }
            let result = withUnsafePointer(to: &unix) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if result != 0 {
                let error = errno
                Glibc.close(fd)
                throw SystemError(function: "connect", subject: address, errno: error)
            }
            self.fd = fd
        } else {
            let parts = address.split(separator: ":", maxSplits: 1).map(String.init)
            let host = parts.first ?? "localhost", port = parts.count > 1 ? parts[1] : "6600"
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, port, &hints, &list) == 0, let first = list else {
                throw SystemError(function: "getaddrinfo", subject: address, errno: EHOSTUNREACH)
            }
            defer { freeaddrinfo(list) }
            var entry: UnsafeMutablePointer<addrinfo>? = first
            var lastError = ECONNREFUSED
            var connected: Int32 = -1
            while let info = entry {
                let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
                if fd >= 0 {
                    if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { connected = fd; break }
                    lastError = errno
                    Glibc.close(fd)
                }
                entry = info.pointee.ai_next
            }
            guard connected >= 0 else { throw SystemError(function: "connect", subject: address, errno: lastError) }
            self.fd = connected
        }
    }

    deinit { Glibc.close(fd) }

    /// Writes one line (a newline is added).
    public func send(_ line: String) throws(SystemError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = try Syscall.call("send", address) {
                bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            offset += written
        }
    }

    /// A complete line already received, if any (without reading).
    public func bufferedLine() -> String? {
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
    }

    /// Reads once (blocking if nothing is there) into the buffer; false at end of stream.
    public func fill() throws(SystemError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = try Syscall.call("read", address) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
        if count == 0 { closed = true; return false }
        buffer += chunk[0..<count]
        return true
    }

    /// The next line, blocking; nil at end of stream.
    public func readLine() throws(SystemError) -> String? {
        while true {
            if let line = bufferedLine() { return line }
            guard try fill() else { return nil }
        }
    }
}
