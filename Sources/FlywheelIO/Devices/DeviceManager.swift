import FlywheelCore
import Glibc

/// Takes devices as they come and lets them go as they leave: configured ones by path or GPIO
/// lines, and (with discovery) any evdev node the classifier wants. The daemon may start before
/// its devices exist; inotify on the device directories says when to look again, so nothing polls.
///
/// A node that refuses access (EACCES while udev is still applying permissions) or is busy is
/// retried with backoff (50 ms doubling to 2 s, for 5 s), then again whenever its attributes change.
/// A device that fails (ENODEV on unplug, read errors, hang-up) is closed, reported `removed`, and
/// taken back when it returns; the controls it drove keep their state, since they live elsewhere.
public final class DeviceManager {
    /// Where a wanted device is found.
    public enum Source: Sendable, Hashable {
        /// An evdev node or a stable symlink to one.
        case evdev(path: String)
        /// An encoder's GPIO lines: the chip (the Raspberry Pi header, or one by name, path, number or label), A, B and an optional button.
        case gpio(chip: GPIOChipSelector, a: String, b: String, button: String?)
    }

    /// A configured device.
    public struct Want: Sendable, Hashable {
        public var name: String
        public var source: Source
        public var profile: String?
        public var grab: Bool
        /// What its knob drives.
        public var route: KnobRoute
        /// Its own button actions.
        public var buttonActions: [UInt16: ButtonAction] = [:]
        /// Its buttons' own long and double presses.
        public var buttonGestures: [UInt16: ButtonGestures] = [:]
        /// Its knob's own settings.
        public var knobOptions = KnobOptions()

        public init(name: String, source: Source, profile: String? = nil, grab: Bool = false, route: KnobRoute = .followMode) {
            self.name = name
            self.source = source
            self.profile = profile
            self.grab = grab
            self.route = route
        }
    }

    /// How devices are opened: the real backends, or a test's own.
    public struct Opener {
        /// Opens an evdev node; nil when discovery does not want it (`want` is nil for discovered nodes).
        public var evdev: (_ path: String, _ want: Want?) throws(SystemError) -> (any DeviceReader)?
        /// Requests an encoder's GPIO lines.
        public var gpio: (_ want: Want) throws(SystemError) -> any DeviceReader

        public init(
            evdev: @escaping (_ path: String, _ want: Want?) throws(SystemError) -> (any DeviceReader)?,
            gpio: @escaping (_ want: Want) throws(SystemError) -> any DeviceReader
        ) {
            self.evdev = evdev
            self.gpio = gpio
        }
    }

    /// An open device as clients see it in `hello` and `device` messages.
    public typealias Open = InputDevice

    final class Slot {
        let key: String
        let want: Want?
        var reader: (any DeviceReader)?
        var attempts = 0
        var retryAt: Nanoseconds?
        var retryUntil: Nanoseconds?
        var lastProblem: String?
        var ignored = false
        var name: String

        init(key: String, want: Want?) {
            self.key = key
            self.want = want
            self.name = want?.name ?? key
        }
    }

    let loop: EventLoop
    let opener: Opener
    let clock: () -> Nanoseconds
    let discover: Bool
    /// Where evdev nodes appear (default /dev/input) and GPIO chips (default /dev).
    public let inputDirectory: String
    public let gpioDirectory: String
    let watcher: DirectoryWatcher
    var slots: [Slot] = []

    /// Input from an open device.
    public var onInput: (_ device: Open, _ inputs: [DeviceInput]) -> Void = { _, _ in }
    /// A device was `added` or `removed`.
    public var onChange: (_ action: DeviceChange, _ device: Open, _ time: Nanoseconds) -> Void = { _, _, _ in }
    /// A sentence worth logging (said once per device until its problem changes).
    public var onProblem: (String) -> Void = { _ in }
    /// Open attempts so far (tests check that retries back off rather than spin).
    public private(set) var openAttempts = 0

    /// Backoff for a refused or busy node: first retry after this, doubling.
    public static let firstRetryNanoseconds: Nanoseconds = 50_000_000
    public static let longestRetryNanoseconds: Nanoseconds = 2_000_000_000
    /// How long refused nodes are retried before only attribute changes wake them.
    public static let retryWindowNanoseconds: Nanoseconds = 5_000_000_000

    /// Creates a manager; ``start()`` begins watching and takes what is there.
    public init(
        loop: EventLoop, wants: [Want], discover: Bool, inputDirectory: String = "/dev/input", gpioDirectory: String = "/dev",
        opener: Opener, clock: @escaping () -> Nanoseconds = MonotonicClock.now
    ) throws(SystemError) {
        self.loop = loop
        self.opener = opener
        self.clock = clock
        self.discover = discover
        self.inputDirectory = inputDirectory
        self.gpioDirectory = gpioDirectory
        self.watcher = try DirectoryWatcher()
        for want in wants {
            let key: String
            switch want.source {
            case .evdev(let path): key = path
            case .gpio(let chip, let a, let b, let button): key = "gpio:\(chip):\(a),\(b)" + (button.map { ",\($0)" } ?? "")
            }
            slots.append(Slot(key: key, want: want))
        }
    }

    /// The devices open now.
    public var openDevices: [Open] { slots.compactMap { $0.reader != nil ? open($0) : nil } }

    func open(_ slot: Slot) -> Open {
        Open(
            name: slot.name, path: slot.key, kind: slot.reader?.kind ?? .other, profile: slot.reader?.profileID ?? slot.want?.profile,
            route: slot.want?.route ?? .followMode, buttonActions: slot.want?.buttonActions ?? [:],
            buttonGestures: slot.want?.buttonGestures ?? [:], knobOptions: slot.want?.knobOptions ?? KnobOptions())
    }

    /// Starts watching the device directories and opens what is already there.
    public func start() throws(SystemError) {
        try loop.register(watcher.fd, interest: .readable) { [unowned self] _ in self.directoryChanged() }
        try watchDirectories()
        scan(at: clock())
    }

    func watchDirectories() throws(SystemError) {
        try watcher.watch(inputDirectory)
        for slot in slots {
            switch slot.want?.source {
            case .evdev(let path)?:
                // The node's own directory (by-id/, by-path/ appear with the first device).
                let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
                try watcher.watch(directory.isEmpty ? "/" : directory)
            case .gpio?: try watcher.watch(gpioDirectory)
            case nil: break
            }
        }
    }

    func directoryChanged() {
        let changes: [DirectoryWatcher.Change]
        do { changes = try watcher.read() } catch {
            onProblem("\(error)")
            return
        }
        guard !changes.isEmpty else { return }
        try? watchDirectories()  // a directory that just appeared
        let now = clock()
        let touched = Set(changes.filter { $0.created || $0.attributes }.map { $0.directory + "/" + $0.name })
        for slot in slots where slot.reader == nil {
            // Something changed where devices live: configured devices are looked for again now,
            // whatever the backoff said; a node that itself changed starts afresh (a new device, or
            // udev's permissions applied).
            if touched.contains(slot.key) {
                slot.ignored = false
                slot.attempts = 0
                slot.retryUntil = nil
                slot.retryAt = now
            } else if slot.want != nil {
                slot.retryAt = now
            }
        }
        scan(at: now)
    }

    /// Adds the event nodes discovery has not seen yet, forgets vanished ones, and opens every
    /// device that is not open, not ignored and not waiting out a backoff.
    func scan(at now: Nanoseconds) {
        if discover, slots.allSatisfy({ $0.want == nil }) {
            let names = (try? FileSystem.listDirectory(inputDirectory)) ?? []
            for name in names where name.hasPrefix("event") {
                let key = inputDirectory + "/" + name
                if !slots.contains(where: { $0.key == key }) { slots.append(Slot(key: key, want: nil)) }
            }
            slots.removeAll { $0.want == nil && $0.reader == nil && !FileSystem.exists($0.key) }
        }
        for slot in slots where slot.reader == nil && !slot.ignored && (slot.retryAt ?? now) <= now {
            attempt(slot, now)
        }
    }

    func attempt(_ slot: Slot, _ now: Nanoseconds) {
        slot.retryAt = nil
        openAttempts += 1
        do {
            let reader: (any DeviceReader)?
            switch slot.want?.source ?? .evdev(path: slot.key) {
            case .evdev(let path): reader = try opener.evdev(path, slot.want)
            case .gpio: reader = try opener.gpio(slot.want!)
            }
            guard let reader else {
                slot.ignored = true
                return
            }
            for fd in reader.fds {
                try loop.register(fd, interest: .readable) { [unowned self, unowned slot] ready in self.ready(slot, ready) }
            }
            slot.reader = reader
            slot.lastProblem = nil
            slot.retryUntil = nil
            if slot.want == nil { slot.name = (reader as? EvdevReader)?.device.description.name ?? slot.key }
            onChange(.added, open(slot), now)
        } catch {
            failed(slot, error, now)
        }
    }

    func failed(_ slot: Slot, _ error: SystemError, _ now: Nanoseconds) {
        let transient = [EACCES, EPERM, EBUSY, EAGAIN, EIO].contains(error.errno)
        if transient {
            let until = slot.retryUntil ?? now + Self.retryWindowNanoseconds
            slot.retryUntil = until
            let delay = min(Self.firstRetryNanoseconds << min(slot.attempts, 10), Self.longestRetryNanoseconds)
            slot.attempts += 1
            slot.retryAt = now + delay <= until ? now + delay : nil
        } else {
            slot.retryAt = nil  // absent or not a device: inotify says when to look again
        }
        let absent = [ENOENT, ENODEV, ENXIO].contains(error.errno)
        let problem = absent
            ? "\(slot.name): waiting for \(slot.key) to appear." + (error.hint.map { " " + $0 } ?? "")
            : "\(slot.name): \(error)" + (slot.retryAt != nil ? " Retrying." : " Waiting for the node to change.")
        // Discovery tries every node; one this user may not read is not news.
        let quiet = slot.want == nil && (absent || error.errno == EACCES || error.errno == EPERM)
        if !quiet, problem != slot.lastProblem { onProblem(problem) }
        slot.lastProblem = problem
    }

    func ready(_ slot: Slot, _ readiness: EventLoop.Readiness) {
        guard let reader = slot.reader else { return }
        do throws(SystemError) {
            let inputs = try reader.read()
            if !inputs.isEmpty {
                slot.attempts = 0
                onInput(open(slot), inputs)
            }
            if !readiness.isDisjoint(with: [.hangup, .error]) {
                throw SystemError(function: "epoll_wait", subject: slot.key, errno: ENODEV)
            }
        } catch {
            remove(slot, error)
        }
    }

    func remove(_ slot: Slot, _ error: SystemError) {
        guard let reader = slot.reader else { return }
        let now = clock()
        let gone = open(slot)
        for fd in reader.fds { loop.unregister(fd) }
        reader.close()
        slot.reader = nil
        onChange(.removed, gone, now)
        onProblem("\(slot.name): \(error) The device is closed until it returns.")
        slot.lastProblem = nil
        // Look again shortly (a rebind comes back at once); a device that keeps failing backs off.
        slot.retryAt = now + min(Self.firstRetryNanoseconds << min(slot.attempts, 10), Self.longestRetryNanoseconds)
        slot.attempts += 1
        if slot.want == nil && !FileSystem.exists(slot.key) { slots.removeAll { $0 === slot } }
    }

    /// The next time ``wake(at:)`` has work: a retry, or a device's own deadline.
    public var nextDeadline: Nanoseconds? {
        slots.compactMap { slot in slot.reader == nil ? slot.retryAt : slot.reader!.nextDeadline }.min()
    }

    /// Runs retries and device deadlines that are due.
    public func wake(at now: Nanoseconds) {
        for slot in slots {
            if let reader = slot.reader {
                if let deadline = reader.nextDeadline, deadline <= now {
                    let inputs = reader.expire(at: now)
                    if !inputs.isEmpty { onInput(open(slot), inputs) }
                }
            } else if let at = slot.retryAt, at <= now {
                attempt(slot, now)
            }
        }
    }

    /// The metronome beat, for devices with a light.
    public func beat(at time: Nanoseconds) {
        for slot in slots { slot.reader?.beat(at: time) }
    }

    /// Closes every device.
    public func shutdown() {
        for slot in slots {
            guard let reader = slot.reader else { continue }
            for fd in reader.fds { loop.unregister(fd) }
            reader.close()
            slot.reader = nil
        }
    }
}
