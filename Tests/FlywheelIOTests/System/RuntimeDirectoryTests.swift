import Glibc
import Testing
@testable import FlywheelIO

@Suite("The socket's runtime directory")
struct RuntimeDirectoryTests {
    /// A fresh temporary folder, removed (with what the test made in it) afterwards.
    static func withFolder(_ body: (String) throws -> Void) rethrows {
        var template = Array("/tmp/flywheel-runtime-XXXXXX".utf8CString)
        let folder = String(cString: mkdtemp(&template)!)
        defer {
            for name in (try? FileSystem.listDirectory(folder)) ?? [] {
                if unlink(folder + "/" + name) != 0 { rmdir(folder + "/" + name) }
            }
            rmdir(folder)
        }
        try body(folder)
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }

    @Test("a missing folder is made with mode 0755 even under umask 077")
    func makesMissingFolder() throws {
        try Self.withFolder { folder in
            let previous = umask(0o077)
            defer { umask(previous) }
            let socket = folder + "/flywheel/flywheel.sock"
            #expect(try RuntimeDirectory.prepared(forSocket: socket) == socket)
            let mode = try #require(Self.mode(folder + "/flywheel"))
            #expect(mode & S_IFMT == S_IFDIR)
            #expect(mode & 0o7777 == 0o755)
        }
    }

    @Test("an existing folder is left as it is")
    func keepsExistingFolder() throws {
        try Self.withFolder { folder in
            #expect(mkdir(folder + "/flywheel", 0o700) == 0)
            // Exactly 0700 whatever the process's umask is at this moment: the umask is the
            // process's, and a listener binding in a test running beside this one changes it for
            // the moment of its bind (UnixListener), which made mkdir's mode 0600 once.
            #expect(chmod(folder + "/flywheel", 0o700) == 0)
            _ = try RuntimeDirectory.prepared(forSocket: folder + "/flywheel/flywheel.sock")
            #expect(Self.mode(folder + "/flywheel").map { $0 & 0o7777 } == 0o700)
        }
    }

    @Test("a dangling symbolic link in the folder's place is not followed")
    func refusesDanglingLink() {
        Self.withFolder { folder in
            #expect(symlink(folder + "/elsewhere", folder + "/flywheel") == 0)
            #expect(throws: SystemError(function: "mkdir", subject: folder + "/flywheel", errno: EEXIST)) {
                try RuntimeDirectory.prepared(forSocket: folder + "/flywheel/flywheel.sock")
            }
            #expect(Self.mode(folder + "/elsewhere") == nil)
        }
    }

    @Test("only the last folder is made: a missing parent is an error naming it")
    func missingParent() {
        Self.withFolder { folder in
            #expect(throws: SystemError(function: "mkdir", subject: folder + "/a/b", errno: ENOENT)) {
                try RuntimeDirectory.prepared(forSocket: folder + "/a/b/flywheel.sock")
            }
        }
    }

    @Test("a socket path without a folder is returned as it is")
    func bareName() throws {
        #expect(try RuntimeDirectory.prepared(forSocket: "flywheel.sock") == "flywheel.sock")
        #expect(try RuntimeDirectory.prepared(forSocket: "/flywheel.sock") == "/flywheel.sock")
    }
}
