@testable import FlywheelIO
import Glibc
import Testing

/// The state file's reads and atomic replacements (issue 45): a file that is not a regular file
/// of its own is refused, and a replacement leaves the old contents or the new, never less.
@Suite("State file")
struct StateFileTests {
    /// A new directory, removed with what is in it after `body`.
    static func inDirectory(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/flywheel-statefile-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError(function: "mkdtemp", subject: "/tmp", errno: errno) }
        let directory = String(cString: made)
        defer {
            for name in (try? FileSystem.listDirectory(directory)) ?? [] {
                let path = directory + "/" + name
                if unlink(path) != 0 { rmdir(path) }
            }
            rmdir(directory)
        }
        try body(directory)
    }

    static func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    @Test("no file is nil; a file is read; a replacement writes the new contents and leaves no temporary file")
    func readAndReplace() throws {
        try Self.inDirectory { directory in
            let path = directory + "/state"
            let none = try StateFile.read(path, limitBytes: 4096)
            #expect(none == nil)
            try StateFile.replace(path, with: Array("one\n".utf8))
            let one = try StateFile.read(path, limitBytes: 4096)
            #expect(one == Array("one\n".utf8))
            try StateFile.replace(path, with: Array("two\n".utf8))
            let two = try StateFile.read(path, limitBytes: 4096)
            #expect(two == Array("two\n".utf8))
            let names = try FileSystem.listDirectory(directory)
            #expect(names == ["state"])
            #expect(StateFile.temporaryPath(for: path) == directory + "/.state.\(getpid()).new", "named for the writer: two never share one")
        }
    }

    @Test("a symbolic link, a directory, a FIFO and a file over the limit are refused, each saying what it is")
    func refused() throws {
        try Self.inDirectory { directory in
            Self.write("x", to: directory + "/target")
            symlink(directory + "/target", directory + "/link")
            #expect(throws: StateFileError.symbolicLink(path: directory + "/link")) { try StateFile.read(directory + "/link", limitBytes: 4096) }
            mkdir(directory + "/folder", 0o755)
            #expect(throws: StateFileError.notRegular(path: directory + "/folder")) { try StateFile.read(directory + "/folder", limitBytes: 4096) }
            mkfifo(directory + "/fifo", 0o644)
            #expect(throws: StateFileError.notRegular(path: directory + "/fifo")) { try StateFile.read(directory + "/fifo", limitBytes: 4096) }
            Self.write(String(repeating: "9", count: 10_000_000), to: directory + "/huge")
            #expect(throws: StateFileError.tooLarge(path: directory + "/huge", limitBytes: 4096)) { try StateFile.read(directory + "/huge", limitBytes: 4096) }
            // A link planted where the temporary file goes is not followed: the write fails, the target is untouched.
            symlink(directory + "/target", StateFile.temporaryPath(for: directory + "/guarded"))
            #expect(throws: SystemError.self) { try StateFile.replace(directory + "/guarded", with: Array("new".utf8)) }
            let target = try FileSystem.readFile(directory + "/target")
            #expect(target == Array("x".utf8))
        }
    }

    @Test("a socket or a device at the path is never replaced: the write is refused, saying why, and the node stays")
    func nodesStay() throws {
        try Self.inDirectory { directory in
            let path = directory + "/flywheel.sock"
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            try #require(bound == 0)
            for node in [path, "/dev/null"] {
                do {
                    try StateFile.replace(node, with: Array("{}\n".utf8))
                    Issue.record("\(node) was replaced")
                } catch let error as SystemError {
                    #expect(error.description.contains("not a state file"), "\(error.description)")
                }
            }
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
            #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
            let names = try FileSystem.listDirectory(directory)
            #expect(names == ["flywheel.sock"], "no temporary file left")
        }
    }

    @Test("a place that cannot be written: the replacement fails with a sentence naming the file; no file is left half made")
    func unwritable() throws {
        try Self.inDirectory { directory in
            // A file where the directory should be (as root, a directory's mode does not stop a
            // write; a file in its place does, for everyone).
            Self.write("a file, not a directory", to: directory + "/ro")
            do {
                try StateFile.replace(directory + "/ro/state", with: Array("new\n".utf8))
                Issue.record("a write under a file succeeded")
            } catch let error as SystemError {
                #expect(error.description.contains(StateFile.temporaryPath(for: directory + "/ro/state")), "\(error.description)")
            }
            let names = try FileSystem.listDirectory(directory)
            #expect(names == ["ro"])
        }
    }
}
