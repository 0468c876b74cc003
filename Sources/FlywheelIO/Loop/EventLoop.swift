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
        /// Both directions are shut (EPOLLHUP alone): a peer that only shut its sending side
        /// (EPOLLRDHUP) may still be listening.
        public static let closed = Readiness(rawValue: EPOLLHUP.rawValue)

        /// The epoll events for this interest: a readable interest also hears the peer's hang-up.
        var epollEvents: UInt32 { contains(.readable) ? rawValue | EPOLLRDHUP.rawValue : rawValue }
    }

    let epoll: Int32
    let timer: Int32
    // The loop's state is not checked for exclusivity at run time: the loop is one thread, and no
    // access to it is held across a call that could reach it again (a handler is looked up, then
    // called; the epoll events are filled, then read). The checks are a `swift_beginAccess` for
    // each access, several a wake-up (their cost: Tests/Benchmarks/BENCHMARKS.md).
    @exclusivity(unchecked) var handlers: [Int32: (Readiness) -> Void] = [:]
    @exclusivity(unchecked) var timerHandler: () -> Void = {}
    @exclusivity(unchecked) var running = false
    /// The deadline the timer is armed for, if any.
    @exclusivity(unchecked) public private(set) var armedDeadline: Nanoseconds?
    /// The timer expired and its expiry was not read: the next setting clears it, as
    /// timerfd_settime(2) does, so a wake-up whose handler sets the timer again costs that one
    /// call and no `read`. One that does not is read after the handler (else epoll would report
    /// the timer ready at every wake-up).
    @exclusivity(unchecked) var timerExpired = false
    /// How many times the timer was set: an expiry epoll reported before a setting in the same
    /// wake-up is stale (the setting cleared it).
    @exclusivity(unchecked) var timerSettings = 0
    /// How many times `epoll_wait` returned: the daemon's wakeups.
    @exclusivity(unchecked) public private(set) var wakeups = 0

    /// What the loop's timer deadlines are measured on, and what the loop's users read the time
    /// from. On a ``VirtualClock`` the timerfd is never set: a deadline is due when the test has
    /// moved the clock past it, and ``runOnce(timeoutMilliseconds:onTimer:)`` fires it.
    public let clock: TimeSource

    /// Creates the loop, its deadlines on `clock`.
    public init(clock: TimeSource = .monotonic) throws(SystemError) {
        self.clock = clock
        epoll = try Syscall.call("epoll_create1", "the event loop") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        timer = try Syscall.call("timerfd_create", "the event loop") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        }
        try add(timer, events: EPOLLIN.rawValue)
    }

    deinit {
        close(timer)
        close(epoll)
        events.deallocate()
    }

    func add(_ fd: Int32, events: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = try Syscall.call("epoll_ctl", "descriptor \(fd)") { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
    }

    /// Watches `fd` for `interest`, calling `handler` with what is ready.
    public func register(_ fd: Int32, interest: Readiness, handler: @escaping (Readiness) -> Void) throws(SystemError) {
        try add(fd, events: interest.epollEvents)
        handlers[fd] = handler
    }

    /// Changes what `fd` is watched for (an empty interest still hears EPOLLHUP and EPOLLERR).
    public func modify(_ fd: Int32, interest: Readiness) throws(SystemError) {
        var event = epoll_event()
        event.events = interest.epollEvents
        event.data.fd = fd
        _ = try Syscall.call("epoll_ctl", "descriptor \(fd)") { epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) }
    }

    /// Stops watching `fd` (before it is closed). A descriptor the loop does not watch is a bug.
    public func unregister(_ fd: Int32) {
        handlers[fd] = nil
        var event = epoll_event()
        do {
            _ = try Syscall.call("epoll_ctl", "descriptor \(fd)") { epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event) }
        } catch {
            // ENOENT (never added) and ENOMEM cannot leave the loop in a state that matters for a
            // descriptor about to be closed; anything else is a bug.
            precondition(error.errno == ENOENT || error.errno == ENOMEM, "\(error)")
        }
    }

    /// Called when the armed deadline passes.
    public func onTimer(_ handler: @escaping () -> Void) { timerHandler = handler }

    /// Arms the timer for an absolute CLOCK_MONOTONIC time, or disarms it with nil. The only
    /// failure timerfd_settime(2) has for a valid timer is EINVAL for a bad time, which a clamped
    /// deadline cannot be: a failure here is a bug.
    public func arm(at deadline: Nanoseconds?) {
        guard deadline != armedDeadline || timerExpired else { return }
        armedDeadline = deadline
        timerExpired = false
        timerSettings &+= 1
        if case .virtual = clock { return }  // ``runOnce`` compares the deadline with the virtual clock
        var spec = Self.timerSpec(at: deadline)
        do {
            _ = try Syscall.call("timerfd_settime", "the event loop's timer") { timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// A timerfd setting for the absolute CLOCK_MONOTONIC time `deadline` (nil: disarmed).
    static func timerSpec(at deadline: Nanoseconds?) -> itimerspec {
        var spec = itimerspec()
        if let deadline {
            let clamped = max(deadline, 1)  // 0 would disarm
            spec.it_value.tv_sec = Int(clamped / 1_000_000_000)
            spec.it_value.tv_nsec = Int(clamped % 1_000_000_000)
        }
        return spec
    }

    /// Runs until ``stop()``.
    public func run() throws(SystemError) {
        // The kept handler as it is when the timer fires (a handler may set another).
        try run { self.timerHandler() }
    }

    /// Runs until ``stop()``, calling `timerHandler` when the armed deadline passes (in place of
    /// the handler ``onTimer(_:)`` keeps). A handler the loop keeps is retained around every call
    /// and holds its owner unowned, a check and a release more; one passed here is neither: the
    /// caller's frame holds what it uses for as long as the loop runs.
    public func run(onTimer timerHandler: () -> Void) throws(SystemError) {
        running = true
        while running { try wait(timeoutMilliseconds: -1, onTimer: timerHandler) }
    }

    /// Waits once for readiness or the timer (at most `timeoutMilliseconds`, -1 for no limit) and
    /// runs the handlers of what is ready: for tests that step the loop themselves.
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) {
        try runOnce(timeoutMilliseconds: timeoutMilliseconds) { self.timerHandler() }
    }

    /// ``runOnce(timeoutMilliseconds:)`` calling `timerHandler` when the armed deadline passes; on a
    /// virtual clock, when the clock has been moved to or past it (after the wakeup's handlers).
    public func runOnce(timeoutMilliseconds: Int32, onTimer timerHandler: () -> Void) throws(SystemError) {
        running = true
        try wait(timeoutMilliseconds: timeoutMilliseconds, onTimer: timerHandler)
        guard case .virtual(let virtualClock) = clock else { return }
        if let deadline = armedDeadline, virtualClock.now >= deadline, running {
            armedDeadline = nil
            timerHandler()
        }
        for wakeTimer in wakeTimers where running { wakeTimer.fireIfDue(at: virtualClock.now) }
    }

    /// The socket server's own timers on a virtual clock (on CLOCK_MONOTONIC they are timerfds
    /// the loop watches like any descriptor).
    var wakeTimers: [WakeTimer] = []

    /// The first deadline anything on the loop waits for: its timer's or, on a virtual clock, a
    /// server timer's. What a test moves a virtual clock to.
    public var nextDeadline: Nanoseconds? {
        wakeTimers.compactMap(\.armedAt).reduce(armedDeadline) { earliest, time in min(earliest ?? time, time) }
    }

    /// Room for the events one `epoll_wait` reports (allocated once: an array passed `inout` to the
    /// call is checked for uniqueness at every wake-up).
    static let eventCapacity = 64
    let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: eventCapacity)

    /// Work to do after this wakeup's handlers, before the loop sleeps again (see ``soon(_:)``).
    @exclusivity(unchecked) var soonWork: [() -> Void] = []

    /// Runs `work` once on the next wakeup, after its handlers; while such work waits, that
    /// `epoll_wait` does not block, so what is ready meanwhile is served first (a client with more
    /// lines than one turn allows comes back after the others).
    public func soon(_ work: @escaping () -> Void) { soonWork.append(work) }

    func wait(timeoutMilliseconds: Int32, onTimer timerHandler: () -> Void) throws(SystemError) {
        // Waiting from within the timer's handler (a loop stepped inside it), its expiry still
        // unread: read now, or epoll would report the same expiry again.
        if timerExpired { try clearTimer() }
        // What this wakeup does after its handlers; what they ask for waits a turn. (Taken only
        // when there is some: a wakeup with none touches no array.)
        var due: [() -> Void]?
        if !soonWork.isEmpty {
            due = soonWork
            soonWork = []
        }
        let count = try Syscall.call("epoll_wait", "the event loop") {
            epoll_wait(epoll, events, Int32(Self.eventCapacity), due == nil ? timeoutMilliseconds : 0)
        }
        defer { if let due { for work in due where running { work() } } }
        wakeups += 1
        let settingsAtWait = timerSettings
        for index in 0..<Int(count) {
            let fd = events[index].data.fd
            let ready = Readiness(rawValue: events[index].events)
            if fd == timer {
                // Set again by a handler before this one (between epoll_wait and here): that
                // setting cleared the expiry epoll reported, and the timer is armed as it says.
                guard timerSettings == settingsAtWait else { continue }
                armedDeadline = nil
                timerExpired = true
                timerHandler()
                if timerExpired { try clearTimer() }
            } else if let handler = handlers[fd] {
                handler(ready)
            }
            if !running { break }
        }
    }

    /// Reads the timer's expiry when nothing set the timer after it: epoll reports it no more.
    func clearTimer() throws(SystemError) {
        var expirations: UInt64 = 0
        // (wouldBlock cannot happen: the expiry is there, and nothing but this reads it.)
        _ = try Syscall.nonBlocking("read", "the event loop's timer") { read(timer, &expirations, 8) }
        timerExpired = false
    }

    /// Drops every handler (they often capture the loop itself: this breaks the cycle when a tool
    /// is done with its loop).
    public func removeAllHandlers() {
        for fd in handlers.keys { unregister(fd) }
        timerHandler = {}
        soonWork = []
    }

    /// Makes ``run()`` return after the current wakeup.
    public func stop() { running = false }
}
