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
}
