import Glibc
import Testing
@testable import FlywheelIO

@Suite("The program's own location")
struct ExecutablePathTests {
    @Test("/proc/self/exe names the running program's file, absolute, whatever argv[0] says")
    func current() throws {
        let path = try ExecutablePath.current()
        #expect(path.hasPrefix("/"))
        var mine = stat()
        var named = stat()
        #expect(stat(path, &named) == 0)
        if getenv("FLYWHEEL_LANE").map({ String(cString: $0) }) == "arm64" {
            // Under qemu-user (the arm64 lane) stat(2) of /proc/self/exe is the emulator's own file,
            // while readlink(2), which ExecutablePath uses, is emulated to name the program: there
            // the program's file is the one swift test started, given absolute as argv[0].
            var resolved = stat()
            #expect(stat(CommandLine.arguments[0], &resolved) == 0)
            #expect(resolved.st_ino == named.st_ino && resolved.st_dev == named.st_dev)
        } else {
            #expect(stat("/proc/self/exe", &mine) == 0)
            #expect(mine.st_ino == named.st_ino && mine.st_dev == named.st_dev)
        }
        #expect(ExecutablePath.folder() == String(path[..<path.lastIndex(of: "/")!]))
    }
}
