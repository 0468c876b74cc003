import CLinux
import FlywheelCore
import Glibc

/// A single-threaded event loop on epoll: file descriptors with handlers, one timerfd armed only
/// at the next deadline, and signals through a signalfd. It never polls: with nothing to do it
/// sleeps in `epoll_wait` without a timeout.
public final class EventLoop {
    /// What a handler is told.
    public struct Readiness: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Readiness(rawValue: EPOLLIN.rawValue)
        public static let writable = Readiness(rawValue: EPOLLOUT.rawValue)
        public static let hangup = Readiness(rawValue: EPOLLHUP.rawValue | EPOLLRDHUP.rawValue)
        public static let error = Readiness(rawValue: EPOLLERR.rawValue)
    }

    let epoll: Int32
    let timer: Int32
    var handlers: [Int32: (Readiness) -> Void] = [:]
    var timerHandler: () -> Void = {}
    var running = false
    /// The deadline the timer is armed for, if any.
    public private(set) var armedDeadline: Nanoseconds?
    /// How many times `epoll_wait` returned: the daemon's wakeups.
    public private(set) var wakeups = 0

    /// Creates the loop.
    public init() throws(SystemError) {
        epoll = try Syscall.call("epoll_create1", "the event loop") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        timer = try Syscall.call("timerfd_create", "the event loop") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }
        try add(timer, events: EPOLLIN.rawValue)
    }

    deinit {
        close(timer)
        close(epoll)
    }

    func add(_ fd: Int32, events: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = try Syscall.call("epoll_ctl", "descriptor \(fd)") { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
    }

    /// Watches `fd` for `interest`, calling `handler` with what is ready.
    public func register(_ fd: Int32, interest: Readiness, handler: @escaping (Readiness) -> Void) throws(SystemError) {
        try add(fd, events: interest.rawValue | EPOLLRDHUP.rawValue)
        handlers[fd] = handler
    }

    /// Changes what `fd` is watched for.
    public func modify(_ fd: Int32, interest: Readiness) throws(SystemError) {
        var event = epoll_event()
        event.events = interest.rawValue | EPOLLRDHUP.rawValue
        event.data.fd = fd
        _ = try Syscall.call("epoll_ctl", "descriptor \(fd)") { epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) }
    }

    /// Stops watching `fd` (before it is closed).
    public func unregister(_ fd: Int32) {
        handlers[fd] = nil
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// Called when the armed deadline passes.
    public func onTimer(_ handler: @escaping () -> Void) { timerHandler = handler }

    /// Arms the timer for an absolute CLOCK_MONOTONIC time, or disarms it with nil.
    public func arm(at deadline: Nanoseconds?) {
        guard deadline != armedDeadline else { return }
        armedDeadline = deadline
        var spec = itimerspec()
        if let deadline {
            let clamped = max(deadline, 1)  // 0 would disarm
            spec.it_value.tv_sec = Int(clamped / 1_000_000_000)
            spec.it_value.tv_nsec = Int(clamped % 1_000_000_000)
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Runs until ``stop()``.
    public func run() throws(SystemError) {
        running = true
        while running { try wait(timeoutMilliseconds: -1) }
    }

    /// Waits once for readiness or the timer (at most `timeoutMilliseconds`, -1 for no limit) and
    /// runs the handlers of what is ready: for tests that step the loop themselves.
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) {
        running = true
        try wait(timeoutMilliseconds: timeoutMilliseconds)
    }

    var events = [epoll_event](repeating: epoll_event(), count: 64)

    func wait(timeoutMilliseconds: Int32) throws(SystemError) {
        let count = try Syscall.call("epoll_wait", "the event loop") {
            epoll_wait(epoll, &events, Int32(events.count), timeoutMilliseconds)
        }
        wakeups += 1
        for index in 0..<Int(count) {
            let fd = events[index].data.fd
            let ready = Readiness(rawValue: events[index].events)
            if fd == timer {
                var expirations: UInt64 = 0
                _ = read(timer, &expirations, 8)
                armedDeadline = nil
                timerHandler()
            } else if let handler = handlers[fd] {
                handler(ready)
            }
            if !running { break }
        }
    }

    /// Drops every handler (they often capture the loop itself: this breaks the cycle when a tool
    /// is done with its loop).
    public func removeAllHandlers() {
        for fd in handlers.keys { unregister(fd) }
        timerHandler = {}
    }

    /// Makes ``run()`` return after the current wakeup.
    public func stop() { running = false }
}
