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
        #expect(stat("/proc/self/exe", &mine) == 0)
        #expect(stat(path, &named) == 0)
        #expect(mine.st_ino == named.st_ino && mine.st_dev == named.st_dev)
        #expect(ExecutablePath.folder() == String(path[..<path.lastIndex(of: "/")!]))
    }
}
