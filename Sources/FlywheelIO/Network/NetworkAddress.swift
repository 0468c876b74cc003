import Glibc

/// Where a bridge reaches a peer: a Unix socket path (any address with a '/') or `host:port`
/// (`[v6]:port` too), resolved with getaddrinfo. A name that does not resolve is a ``SystemError``
/// carrying getaddrinfo's own message (`Name or service not known (EAI_NONAME)`), not an errno's.
public enum NetworkAddress {
    /// A path, or a host and port (the port `defaultPort` when the address has none).
    public enum Parsed: Equatable, Sendable {
        case path(String)
        case host(String, port: String)
    }

    /// `address` taken apart.
    public static func parse(_ address: String, defaultPort: String) -> Parsed {
        if address.contains("/") { return .path(address) }
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            let host = String(address[address.index(after: address.startIndex)..<close])
            let rest = address[address.index(after: close)...]
            return .host(host, port: rest.hasPrefix(":") ? String(rest.dropFirst()) : defaultPort)
        }
        let parts = address.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 { return .host(String(parts[0]).isEmpty ? "localhost" : String(parts[0]), port: String(parts[1])) }
        return .host(address.isEmpty ? "localhost" : address, port: defaultPort)
    }

    /// One resolved socket address.
    public struct Resolved {
        public var family: Int32
        public var socketType: Int32
        public var proto: Int32
        public var storage: sockaddr_storage
        public var length: socklen_t
    }

    /// The addresses of `host`:`port` for `socketType` (SOCK_STREAM, SOCK_DGRAM), in getaddrinfo's order.
    public static func resolve(host: String, port: String, socketType: Int32, subject: String) throws(SystemError) -> [Resolved] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = socketType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0, let first = list else {
            let code = status == EAI_SYSTEM ? Glibc.errno : 0
            let name = gaiName(status)
            throw SystemError(
                function: "getaddrinfo", subject: subject, errno: code,
                reason: code != 0 ? nil : "\(String(cString: gai_strerror(status))) (\(name))")
        }
        defer { freeaddrinfo(list) }
        var out: [Resolved] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            var storage = sockaddr_storage()
            let length = min(info.pointee.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(length)))
            }
            out.append(Resolved(family: info.pointee.ai_family, socketType: info.pointee.ai_socktype, proto: info.pointee.ai_protocol, storage: storage, length: length))
            entry = info.pointee.ai_next
        }
        return out
    }

    static func gaiName(_ status: Int32) -> String {
        switch status {
        case EAI_NONAME: return "EAI_NONAME"
        case EAI_AGAIN: return "EAI_AGAIN"
        case EAI_FAIL: return "EAI_FAIL"
        case EAI_SERVICE: return "EAI_SERVICE"
        case EAI_FAMILY: return "EAI_FAMILY"
        case EAI_SOCKTYPE: return "EAI_SOCKTYPE"
        case EAI_MEMORY: return "EAI_MEMORY"
        default: return "EAI \(status)"
        }
    }
}
