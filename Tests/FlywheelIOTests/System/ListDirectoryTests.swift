import Glibc
import Testing
@testable import FlywheelIO

/// A directory's names as `readdir` gives them: each read where the C library put it, never past
/// the end of its record (the last record of a buffer is only as long as its name; AddressSanitizer
/// caught a copy of the whole `dirent`, 256 bytes of name, read past a buffer's end).
@Suite("Listing a directory")
struct ListDirectoryTests {
    @Test("names of every length up to the longest a file system takes come back whole, sorted, without . and ..")
    func namesOfEveryLength() throws {
        var template = Array("/tmp/flywheel-list-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
        let names = (1...255).map { String(repeating: "n", count: $0 - 1) + "\($0 % 10)" }
        defer {
            for name in names { unlink(folder + "/" + name) }
            rmdir(folder)
        }
        for name in names {
            let fd = open(folder + "/" + name, O_CREAT | O_WRONLY, 0o600)
            try #require(fd >= 0, "could not make \(name.count)-byte name in \(folder)")
            close(fd)
        }
        #expect(try FileSystem.listDirectory(folder) == names.sorted())
    }

    @Test("a directory of 2,000 short names, more than one buffer of readdir's, is listed whole")
    func manyShortNames() throws {
        var template = Array("/tmp/flywheel-list-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
        let names = (0..<2_000).map { String($0) }
        defer {
            for name in names { unlink(folder + "/" + name) }
            rmdir(folder)
        }
        for name in names {
            let fd = open(folder + "/" + name, O_CREAT | O_WRONLY, 0o600)
            try #require(fd >= 0, "could not make \(name) in \(folder)")
            close(fd)
        }
        #expect(try FileSystem.listDirectory(folder) == names.sorted())
    }

    @Test("a missing directory is an error naming it and opendir")
    func missing() {
        #expect(throws: SystemError.self) { try FileSystem.listDirectory("/nonexistent/flywheel-list") }
        do {
            _ = try FileSystem.listDirectory("/nonexistent/flywheel-list")
        } catch {
            #expect(error.description.contains("/nonexistent/flywheel-list") && error.description.contains("cannot read the folder"))
        }
    }
}
