import Glibc
import Testing
@testable import FlywheelIO

/// The socket path as starting would meet it, checked without making or changing anything.
@Suite("Socket path check")
struct SocketPathCheckTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/flywheel-sockcheck-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func touch(_ path: String) { close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)) }

    static func entries(_ directory: String) -> [String] { ((try? FileSystem.listDirectory(directory)) ?? []).sorted() }

    static func remove(_ directory: String) {
        for name in entries(directory) {
            if unlink(directory + "/" + name) != 0 { rmdir(directory + "/" + name) }
        }
        rmdir(directory)
    }

    @Test("a file where the socket's folder should be is named, and nothing is made")
    func folderIsAFile() {
        let directory = Self.temporaryDirectory()
        defer { Self.remove(directory) }
        Self.touch(directory + "/plain")
        #expect(SocketPathCheck.problem(at: directory + "/plain/flywheel.sock") == "\(directory)/plain is not a directory.")
        #expect(SocketPathCheck.problem(at: directory + "/plain/deeper/flywheel.sock") == "\(directory)/plain is not a directory.")
        #expect(Self.entries(directory) == ["plain"])
    }

    @Test("only the socket's own folder is made: a missing folder above it is named, a missing last folder is fine and not made")
    func missingFolders() {
        let directory = Self.temporaryDirectory()
        defer { Self.remove(directory) }
        #expect(
            SocketPathCheck.problem(at: directory + "/a/b/flywheel.sock")
                == "\(directory)/a/b does not exist, and flywheeld makes only the socket's own folder: \(directory)/a must exist.")
        #expect(SocketPathCheck.problem(at: directory + "/a/flywheel.sock") == nil)
        #expect(Self.entries(directory).isEmpty)
    }

    @Test("a path too long for sun_path, or whose private folder would be, is refused with the limit")
    func lengths() {
        let long = "/tmp/" + String(repeating: "x", count: 110) + ".sock"
        #expect(SocketPathCheck.problem(at: long) == "\(long) is \(long.utf8.count) bytes long; a Unix socket path must be under 108 bytes.")
        // 100 bytes of folder and a one-letter name: the path fits, the private folder's socket does not.
        let folder = "/tmp/" + String(repeating: "y", count: 95)
        let problem = SocketPathCheck.problem(at: folder + "/s")
        #expect(problem?.hasPrefix("the socket is first made at \(folder)/.fwXXXXXX/s (112 bytes)") == true)
    }

    @Test("a link, another file or a lock that is not a regular file at the path is refused; an old socket file is not")
    func whatIsThere() {
        let directory = Self.temporaryDirectory()
        defer { Self.remove(directory) }
        let path = directory + "/flywheel.sock"
        Self.touch(path)
        #expect(SocketPathCheck.problem(at: path) == "\(path) exists and is not a socket.")
        unlink(path)
        #expect(symlink("/etc/passwd", path) == 0)
        #expect(SocketPathCheck.problem(at: path) == "\(path) is a symbolic link; flywheeld does not follow links at its socket path.")
        unlink(path)
        #expect(mkdir(path + ".lock", 0o755) == 0)
        #expect(SocketPathCheck.problem(at: path) == "\(path).lock is not a regular file; it is the lock for the socket \(path).")
        rmdir(path + ".lock")
        let listener = try? UnixListener.bind(path: path)
        defer { listener?.close() }
        #expect(listener != nil)
        #expect(SocketPathCheck.problem(at: path) == nil)
    }

    @Test("a folder this user may not write in is refused (skipped as root, who may)")
    func notWritable() {
        guard getuid() != 0 else { return }
        let directory = Self.temporaryDirectory()
        defer { chmod(directory, 0o700); Self.remove(directory) }
        chmod(directory, 0o500)
        let problem = SocketPathCheck.problem(at: directory + "/flywheel.sock")
        #expect(problem?.contains("may not make the socket and its lock in \(directory)") == true)
        #expect(problem?.contains("EACCES") == true)
    }
}
