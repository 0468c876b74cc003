import FlywheelIO
import Glibc

/// Lines read from a descriptor (standard input for `flywheel connect`), one `read` at a time once
/// `poll` says there is something. A line longer than `maximumLineBytes` is passed on in pieces of
/// that size rather than held without bound.
final class LineInput {
    /// The descriptor, for `poll`.
    let fd: Int32
    /// What it is, for messages.
    let name: String
    let maximumLineBytes: Int
    private var buffer: [UInt8] = []

    init(fd: Int32, name: String, maximumLineBytes: Int = 65536) {
        self.fd = fd
        self.name = name
        self.maximumLineBytes = maximumLineBytes
    }

    /// Reads once; false at end of file (what is left without a newline is then a last line).
    func fill() throws(SystemError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = try Syscall.call("read", name) { read(fd, &chunk, chunk.count) }
        if count == 0 {
            if !buffer.isEmpty { buffer.append(0x0A) }
            return false
        }
        buffer += chunk[0..<count]
        return true
    }

    /// A complete line already read, if any.
    func bufferedLine() -> String? {
        if let newline = buffer.firstIndex(of: 0x0A) {
            defer { buffer.removeSubrange(...newline) }
            return String(decoding: buffer[..<newline], as: UTF8.self)
        }
        guard buffer.count >= maximumLineBytes else { return nil }
        defer { buffer.removeSubrange(..<maximumLineBytes) }
        return String(decoding: buffer[..<maximumLineBytes], as: UTF8.self)
    }
}
