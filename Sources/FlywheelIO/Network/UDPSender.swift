import Glibc

/// Datagrams to one `host:port` over a connected UDP socket, for the OSC bridge. Nothing is read.
public final class UDPSender {
    /// Where the datagrams go, for messages.
    public let address: String
    let fd: Int32

    /// Resolves `address` (`host:port`, IPv4 or IPv6) and connects a UDP socket to it.
    public init(to address: String) throws(SystemError) {
        self.address = address
        guard let colon = address.lastIndex(of: ":") else { throw SystemError(function: "getaddrinfo", subject: address, errno: EINVAL) }
        let host = String(address[..<colon]).trimmingCharacters(in: "[]"), port = String(address[address.index(after: colon)...])
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &list) == 0, let info = list else {
            throw SystemError(function: "getaddrinfo", subject: address, errno: EHOSTUNREACH)
        }
        defer { freeaddrinfo(list) }
        let fd = try Syscall.call("socket", address) {
            socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
        }
        do {
            _ = try Syscall.call("connect", address) { connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Sends one datagram. ECONNREFUSED means an earlier datagram found no receiver listening.
    public func send(_ datagram: [UInt8]) throws(SystemError) {
        _ = try Syscall.call("send", address) { datagram.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}
