import FlywheelCore

/// Where an event loop and what it serves read the time: CLOCK_MONOTONIC, or a
/// ``VirtualClock`` that moves only when a test moves it (the daemon then runs in the test's
/// own process, stepped with ``EventLoop/runOnce(timeoutMilliseconds:onTimer:)``, and never sleeps).
public enum TimeSource {
    /// CLOCK_MONOTONIC, the clock of kernel input timestamps: what flywheeld runs on.
    case monotonic
    /// A clock a test advances.
    case virtual(VirtualClock)

    /// Now, in nanoseconds. (An enum, not a protocol or a closure: the monotonic case costs one
    /// comparison more than calling ``MonotonicClock/now()`` itself, and no indirect call.)
    @inline(__always)
    public func now() -> Nanoseconds {
        switch self {
        case .monotonic: MonotonicClock.now()
        case .virtual(let clock): clock.now
        }
    }
}

/// A clock that stands still until it is told to move: virtual time for tests.
public final class VirtualClock {
    /// Now, in nanoseconds.
    public private(set) var now: Nanoseconds

    /// A clock at `start` (one second by default: 0 is never a time the kernel reports).
    public init(start: Nanoseconds = 1_000_000_000) { now = start }

    /// Moves the clock on to `time`; an earlier time leaves it where it is (time never goes back).
    public func advance(to time: Nanoseconds) { now = max(now, time) }

    /// Moves the clock on by `interval`.
    public func advance(by interval: Nanoseconds) { advance(to: now + max(0, interval)) }
}
