import Glibc

/// A blocking client of the daemon's socket, for `flywheel watch` and `flywheel send`.
public final class UnixClient {
    let fd: Int32
    var buffer: [UInt8] = []
    /// The socket path.
    public let path: String

    /// Connects to `path`.
    public init(path: String) throws(SystemError) {
        self.path = path
        fd = try Syscall.call("socket", path) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        guard var address = try? UnixListener.address(path) else {
            Glibc.close(fd)
            throw SystemError(function: "connect", subject: path, errno: ENAMETOOLONG)
        }
        do {
            _ = try Syscall.call("connect", path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends one line (a newline is added).
    public func send(_ line: String) throws(SystemError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = try Syscall.call("write", path) { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) } }
            offset += written
        }
    }

    /// The next line from the daemon, or nil at end of stream.
    public func readLine() throws(SystemError) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = try Syscall.call("read", path) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if count == 0 { return nil }
            buffer += chunk[0..<count]
        }
    }
}
