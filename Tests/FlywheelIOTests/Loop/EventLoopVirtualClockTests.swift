import FlywheelCore
@testable import FlywheelIO
import Glibc
import Testing

/// An event loop on a virtual clock: its timer is due when the test moves the clock, never by
/// the kernel's clock, and a turn never waits for it.
@Suite("The event loop on a virtual clock")
struct EventLoopVirtualClockTests {
    @Test("a deadline fires once the clock reaches it, not before, and the armed deadline is cleared")
    func firesAtVirtualDeadline() throws {
        let clock = VirtualClock(start: 5_000_000_000)
        let loop = try EventLoop(clock: .virtual(clock))
        var fired: [Nanoseconds] = []
        loop.arm(at: 5_008_000_000)
        // Far past in CLOCK_MONOTONIC terms for a machine up a while: the kernel's timer is not set.
        try loop.runOnce(timeoutMilliseconds: 0) { fired.append(clock.now) }
        #expect(fired.isEmpty && loop.armedDeadline == 5_008_000_000)
        clock.advance(by: 7_999_999)
        try loop.runOnce(timeoutMilliseconds: 0) { fired.append(clock.now) }
        #expect(fired.isEmpty)
        clock.advance(by: 1)
        try loop.runOnce(timeoutMilliseconds: 0) { fired.append(clock.now) }
        #expect(fired == [5_008_000_000] && loop.armedDeadline == nil)
        try loop.runOnce(timeoutMilliseconds: 0) { fired.append(clock.now) }
        #expect(fired.count == 1, "fired once")
    }

    @Test("a server timer (pacing, hold-back) on a virtual clock: no timerfd, its deadline in nextDeadline, fired once the clock reaches it, then gone from the loop when closed")
    func wakeTimerOnVirtualClock() throws {
        let clock = VirtualClock(start: 5_000_000_000)
        let loop = try EventLoop(clock: .virtual(clock))
        var fired: [Nanoseconds] = []
        let timer = try WakeTimer(loop: loop) { fired.append(clock.now) }
        #expect(timer.fd == -1 && loop.wakeTimers.count == 1)
        loop.arm(at: 5_020_000_000)
        timer.arm(at: 5_010_000_000)
        #expect(loop.nextDeadline == 5_010_000_000, "the earlier of the two")
        clock.advance(by: 9_999_999)
        try loop.runOnce(timeoutMilliseconds: 0) {}
        #expect(fired.isEmpty && timer.armedAt == 5_010_000_000)
        clock.advance(by: 1)
        try loop.runOnce(timeoutMilliseconds: 0) {}
        #expect(fired == [5_010_000_000] && timer.armedAt == nil)
        #expect(loop.nextDeadline == 5_020_000_000, "the loop's own is next")
        try loop.runOnce(timeoutMilliseconds: 0) {}
        #expect(fired.count == 1, "fired once")
        timer.arm(at: 5_015_000_000)
        timer.close()
        #expect(loop.wakeTimers.isEmpty && loop.nextDeadline == 5_020_000_000)
    }

    @Test("the virtual clock never goes back, and the time source reads it")
    func neverBack() {
        let clock = VirtualClock()
        clock.advance(to: 3_000_000_000)
        clock.advance(to: 2_000_000_000)
        clock.advance(by: -5)
        #expect(clock.now == 3_000_000_000 && TimeSource.virtual(clock).now() == 3_000_000_000)
    }
}
