import Glibc

/// Whole-file reads and writes through the ``Syscall`` seam.
public enum FileSystem {
    /// Reads a whole file. `path` "-" reads standard input.
    public static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
        } else {
            fd = try Syscall.call("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try Syscall.call("read", path) {
                chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads a file that must be a regular file of at most `limitBytes` (a configuration): opened
    /// without blocking (a FIFO put in its place cannot stall the caller), refused when it is a
    /// device, a FIFO, a socket or a directory, or when it is longer than the limit (a link to
    /// /dev/zero cannot make the caller read forever). Links are followed: a configuration may be
    /// a link into a managed tree, but what it names must be a regular file; `followingLinks`
    /// false refuses a link itself (ELOOP: a state file, which is data the daemon wrote).
    public static func readRegularFile(_ path: String, limitBytes: Int, followingLinks: Bool = true) throws(FileReadError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try Syscall.call("open", path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW)) }
        } catch {
            throw .system(error)
        }
        defer { close(fd) }
        var info = stat()
        do { _ = try Syscall.call("fstat", path) { fstat(fd, &info) } } catch { throw .system(error) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular(path: path) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try Syscall.call("read", path) { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            } catch {
                throw .system(error)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limitBytes { throw .tooLarge(path: path, limitBytes: limitBytes) }
        }
    }

    /// Whether a regular file or directory exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Names in a directory (without `.` and `..`), sorted.
    public static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        guard let dir = opendir(path) else {
            throw SystemError(function: "opendir", subject: path, errno: Glibc.errno)
        }
        defer { closedir(dir) }
        var names: [String] = []
        // The name is read where it is, up to its NUL: a record in readdir's buffer is only as long
        // as its name (d_reclen), so copying the whole dirent (256 bytes of name) reads past the last.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(dir) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

/// Writes to a file descriptor through the seam, whole buffers at a time.
public struct FileOutput: Sendable {
    /// The descriptor.
    public let fd: Int32
    /// What the descriptor is, for error messages.
    public let name: String

    /// Standard output.
    public static let standardOutput = FileOutput(fd: STDOUT_FILENO, name: "standard output")
    /// Standard error.
    public static let standardError = FileOutput(fd: STDERR_FILENO, name: "standard error")

    /// Writes all of `text`.
    public func write(_ text: String) throws(SystemError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = try Syscall.call("write", name) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            }
            offset += written
        }
    }
}

extension FileSystem {
    /// Writes `text` to an existing file (sysfs and configfs attributes), in one write.
    public static func writeAttribute(_ path: String, _ text: String) throws(SystemError) {
        let fd = try Syscall.call("open", path) { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        _ = try Syscall.call("write", path) { bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
    }

    /// An attribute's text without its trailing newline.
    public static func readAttribute(_ path: String) throws(SystemError) -> String {
        var text = String(decoding: try readFile(path), as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Makes a directory (configfs items are made this way).
    public static func makeDirectory(_ path: String) throws(SystemError) {
        _ = try Syscall.call("mkdir", path) { mkdir(path, 0o755) }
    }

    /// Removes an empty directory (or a configfs item).
    public static func removeDirectory(_ path: String) throws(SystemError) {
        _ = try Syscall.call("rmdir", path) { rmdir(path) }
    }
}

extension FileOutput {
    /// Creates (or truncates) a file for writing, mode 0644; the descriptor stays open for the
    /// process's life (small tools' output files).
    public static func create(_ path: String) throws(SystemError) -> FileOutput {
        let fd = try Syscall.call("open", path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        return FileOutput(fd: fd, name: path)
    }
}

/// Why ``FileSystem/readRegularFile(_:limitBytes:)`` refused a file, as one sentence.
public enum FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call failed.
    case system(SystemError)
    /// Not a regular file (a device, FIFO, socket or directory).
    case notRegular(path: String)
    /// Longer than the limit.
    case tooLarge(path: String, limitBytes: Int)

    public var description: String {
        switch self {
        case .system(let error): return error.description
        case .notRegular(let path): return "\(path) is not a regular file (a device, FIFO, socket or directory); flywheeld reads its configuration only from a regular file."
        case .tooLarge(let path, let limit): return "\(path) is longer than \(limit) bytes, the most a configuration may be."
        }
    }
}
