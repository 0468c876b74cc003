import Glibc
import Testing
@testable import FlywheelIO

/// Work the loop is asked to do soon runs after the wakeup's handlers, without blocking.
@Suite("Event loop: work done soon")
struct EventLoopSoonTests {
    @Test("work asked for soon runs on the next wakeup even with nothing ready, once, in order")
    func soon() throws {
        let loop = try EventLoop()
        var ran: [Int] = []
        loop.soon { ran.append(1) }
        loop.soon { ran.append(2) }
        try loop.runOnce(timeoutMilliseconds: -1)  // would sleep forever if the work did not count
        #expect(ran == [1, 2])
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(ran == [1, 2])
    }
}
