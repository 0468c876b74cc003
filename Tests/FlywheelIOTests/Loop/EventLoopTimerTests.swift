import Glibc
import Testing
@testable import FlywheelCore
@testable import FlywheelIO

/// The loop's one timer: armed at a deadline, it calls the handler the loop runs with, or the one
/// it keeps.
@Suite("Event loop: the timer")
struct EventLoopTimerTests {
    @Test("a handler passed to run is called at each armed deadline, in place of the kept one, until the loop stops")
    func runWithHandler() throws {
        let loop = try EventLoop()
        var kept = 0, passed: [Nanoseconds] = []
        loop.onTimer { kept += 1 }
        let start = MonotonicClock.now()
        loop.arm(at: start + 1_000_000)
        try loop.run {
            passed.append(MonotonicClock.now())
            if passed.count < 3 { loop.arm(at: MonotonicClock.now() + 1_000_000) } else { loop.stop() }
        }
        loop.removeAllHandlers()  // (the kept handler captures the loop)
        #expect(passed.count == 3 && kept == 0)
        // Each call came at or after its deadline: the first a millisecond after the start.
        #expect(passed[0] >= start + 1_000_000)
        for (a, b) in zip(passed, passed.dropFirst()) { #expect(b >= a + 1_000_000) }
    }

    @Test("run without a handler calls the kept one, and a handler set meanwhile from then on")
    func runWithKeptHandler() throws {
        let loop = try EventLoop()
        var calls: [String] = []
        loop.onTimer {
            calls.append("first")
            loop.onTimer {
                calls.append("second")
                loop.stop()
            }
            loop.arm(at: MonotonicClock.now() + 1_000_000)
        }
        loop.arm(at: MonotonicClock.now() + 1_000_000)
        try loop.run()
        loop.removeAllHandlers()
        #expect(calls == ["first", "second"])
    }

    @Test("an expiry is cleared by the handler's next setting, or read when the handler sets nothing: it comes once")
    func expiryComesOnce() throws {
        let loop = try EventLoop()
        var calls = 0
        loop.onTimer {
            calls += 1
            // The first time set again far off (the setting clears the expiry, no read), the
            // second time left alone (the expiry is read after the handler).
            if calls == 1 { loop.arm(at: MonotonicClock.now() + 3_600_000_000_000) }
        }
        loop.arm(at: MonotonicClock.now())
        try loop.runOnce(timeoutMilliseconds: -1)
        #expect(calls == 1 && !loop.timerExpired)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(calls == 1)  // not reported again: the setting cleared it
        loop.arm(at: MonotonicClock.now())
        try loop.runOnce(timeoutMilliseconds: -1)
        #expect(calls == 2 && !loop.timerExpired && loop.armedDeadline == nil)
        for _ in 0..<3 { try loop.runOnce(timeoutMilliseconds: 0) }
        #expect(calls == 2)  // read once the handler left it: not reported at every wake-up
        // Set to rest (nil) by its handler: the setting that disarms it clears it too.
        loop.onTimer {
            calls += 1
            loop.arm(at: nil)
        }
        loop.arm(at: MonotonicClock.now())
        try loop.runOnce(timeoutMilliseconds: -1)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(calls == 3 && !loop.timerExpired)
        loop.removeAllHandlers()
    }

    @Test("an expiry reported in the same wake-up as a handler that sets the timer again is not delivered")
    func staleExpiry() throws {
        let loop = try EventLoop()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var order: [String] = []
        loop.onTimer { order.append("timer") }
        try loop.register(ends[0], interest: .readable) { _ in
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
            order.append("descriptor")
            loop.arm(at: MonotonicClock.now() + 3_600_000_000_000)
        }
        // The descriptor is ready first, then the timer (set in the past: it expires at once).
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        loop.arm(at: 1)
        try loop.runOnce(timeoutMilliseconds: -1)
        try loop.runOnce(timeoutMilliseconds: 0)
        // The timer's handler may come first (epoll's order is not promised); after the
        // descriptor's handler set the timer an hour off, never.
        #expect(order.contains("descriptor"))
        #expect(order.last == "descriptor")
        #expect(loop.armedDeadline != nil && !loop.timerExpired)
        loop.removeAllHandlers()
    }

    @Test("a loop stepped again inside the timer's handler does not get the same expiry twice")
    func nestedWait() throws {
        let loop = try EventLoop()
        var calls = 0
        loop.onTimer {
            calls += 1
            if calls == 1 { try? loop.runOnce(timeoutMilliseconds: 0) }
        }
        loop.arm(at: MonotonicClock.now())
        try loop.runOnce(timeoutMilliseconds: -1)
        try loop.runOnce(timeoutMilliseconds: 0)
        #expect(calls == 1 && !loop.timerExpired)
        loop.removeAllHandlers()
    }
}
