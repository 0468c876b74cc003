import Glibc

/// Datagrams to one `host:port` over a connected UDP socket, for the OSC bridge. Nothing is read;
/// the kernel's "port unreachable" answers come back as the socket's pending error
/// (``takePendingError()``, or ECONNREFUSED from the next send), which is how a bridge knows that
/// nothing listens. Poll its ``fd`` for no events: POLLERR comes anyway.
public final class UDPSender {
    /// Where the datagrams go, for messages.
    public let address: String
    /// The socket, for `poll`.
    public let fd: Int32

    /// Resolves `address` (`host:port`, `[v6]:port`) and connects a UDP socket to it. A name that
    /// does not resolve says so in getaddrinfo's words.
    public init(to address: String) throws(SystemError) {
        self.address = address
        guard case .host(let host, let port) = NetworkAddress.parse(address, defaultPort: "") , !port.isEmpty else {
            throw SystemError(function: "getaddrinfo", subject: address, errno: EINVAL)
        }
        guard var target = try NetworkAddress.resolve(host: host, port: port, socketType: Int32(SOCK_DGRAM.rawValue), subject: address).first else {
            throw SystemError(function: "getaddrinfo", subject: address, errno: EINVAL)
        }
        let fd = try Syscall.call("socket", address) {
            socket(target.family, target.socketType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), target.proto)
        }
        do {
            _ = try Syscall.call("connect", address) {
                withUnsafePointer(to: &target.storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, target.length) } }
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Sends one datagram; false when the socket's buffer is full (it is dropped: UDP). An
    /// ECONNREFUSED is an earlier datagram's: this one was not sent.
    @discardableResult
    public func send(_ datagram: [UInt8]) throws(SystemError) -> Bool {
        let result = try Syscall.nonBlocking("send", address) {
            datagram.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        if case .processed = result { return true }
        return false
    }

    /// The error an earlier datagram brought back (ECONNREFUSED: nothing listens), cleared; 0 if none.
    public func takePendingError() -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return Glibc.errno }
        return error
    }
}
