import FlywheelCore
@testable import FlywheelIO
import Glibc
import Testing

/// A stand-in device: a FIFO in a fake device directory. `+` and `-` bytes are detents; the
/// writer closing is an unplug (ENODEV). Its opener refuses a node without read permission with
/// EACCES, as the kernel does for a user while udev has not yet applied `uaccess`.
final class FIFODevice: DeviceReader {
    let fd: Int32
    let path: String

    init(path: String) throws(SystemError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemError(function: "open", subject: path, errno: errno) }
        guard info.st_mode & 0o444 != 0 else { throw SystemError(function: "open", subject: path, errno: EACCES) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(function: "open", subject: path, errno: errno) }
        self.fd = fd
        self.path = path
    }

    var fds: [Int32] { [fd] }
    var kind: DeviceKind { .jogDial }
    var profileID: String? { nil }
    var nextDeadline: Nanoseconds? { nil }
    func expire(at time: Nanoseconds) -> [DeviceInput] { [] }
    func close() { Glibc.close(fd) }

    func read() throws(SystemError) -> [DeviceInput] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count == 0 { throw SystemError(function: "read", subject: path, errno: ENODEV) }
        if count < 0 { return [] }
        return buffer.prefix(count).compactMap { byte in
            byte == UInt8(ascii: "+") ? DeviceInput(.knob(detents: 1), at: 0) : byte == UInt8(ascii: "-") ? DeviceInput(.knob(detents: -1), at: 0) : nil
        }
    }
}

/// Drives a manager on a real event loop and inotify over a temporary directory.
@MainActor
final class ManagerHarness {
    let directory: String
    let loop: EventLoop
    let manager: DeviceManager
    var log: [String] = []
    var problems: [String] = []
    var detents = 0.0

    init(wants: (String) -> [DeviceManager.Want], discover: Bool, wanted: @escaping (String) -> Bool = { _ in true }) throws {
        var template = Array("/tmp/flywheel-devices-XXXXXX".utf8CString)
        directory = String(cString: mkdtemp(&template)!)
        loop = try EventLoop()
        manager = try DeviceManager(
            loop: loop, wants: wants(directory), discover: discover, inputDirectory: directory, gpioDirectory: directory,
            opener: DeviceManager.Opener(
                evdev: { (path: String, want: DeviceManager.Want?) throws(SystemError) -> (any DeviceReader)? in
                    guard want != nil || wanted(path) else { return nil }
                    return try FIFODevice(path: path)
                },
                gpio: { (want: DeviceManager.Want) throws(SystemError) -> any DeviceReader in
                    throw SystemError(function: "gpiod_chip_open_lookup", subject: want.name, errno: ENOENT)
                }))
        manager.onChange = { [unowned self] action, device, _ in self.log.append("\(action) \(device.name)") }
        manager.onInput = { [unowned self] _, inputs in
            for input in inputs { if case .knob(let d) = input.action { self.detents += d } }
        }
        manager.onProblem = { [unowned self] in self.problems.append($0) }
        loop.onTimer { [unowned self] in self.manager.wake(at: MonotonicClock.now()) }
        try manager.start()
    }

    deinit {
        for name in (try? FileSystem.listDirectory(directory)) ?? [] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    /// Runs the loop until `done` holds (each wait at most 100 ms, 100 waits at most).
    func run(until done: () -> Bool) throws {
        for _ in 0..<100 where !done() {
            loop.arm(at: manager.nextDeadline)
            try loop.runOnce(timeoutMilliseconds: 100)
        }
    }

    func fifo(_ name: String, mode: mode_t) -> String {
        let path = directory + "/" + name
        #expect(mkfifo(path, mode) == 0)
        #expect(chmod(path, mode) == 0)  // past the umask
        return path
    }
}

@Suite("Device manager: hot-plug over inotify")
@MainActor
struct DeviceManagerTests {
    @Test("a configured device that is absent, then unreadable, is taken once readable; unplugged and returned, it is taken back")
    func lifecycle() throws {
        let harness = try ManagerHarness(wants: { [DeviceManager.Want(name: "knob", source: .evdev(path: $0 + "/knob"))] }, discover: false)
        #expect(harness.manager.openDevices.isEmpty)
        #expect(harness.manager.nextDeadline == nil)  // absent: nothing to retry until inotify speaks
        #expect(harness.problems.last?.contains("waiting for") == true)

        // The node appears without permissions (udev has not run yet): retried with backoff.
        let path = harness.fifo("knob", mode: 0)
        try harness.run { harness.manager.openAttempts >= 3 }
        #expect(harness.manager.openAttempts >= 3)
        #expect(harness.manager.openDevices.isEmpty)
        #expect(harness.problems.contains { $0.contains("EACCES") && $0.contains("Retrying") })

        // udev applies the permissions: the attribute change takes it at once.
        #expect(chmod(path, 0o600) == 0)
        try harness.run { !harness.manager.openDevices.isEmpty }
        #expect(harness.log == ["added knob"])

        // Input flows.
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        #expect(writer >= 0)
        #expect(write(writer, "+++-", 4) == 4)
        try harness.run { harness.detents == 2 }
        #expect(harness.detents == 2)

        // Unplugged: the writer goes away and the node is deleted.
        close(writer)
        unlink(path)
        try harness.run { harness.log.count == 2 }
        #expect(harness.log == ["added knob", "removed knob"])
        try harness.run { harness.manager.nextDeadline == nil }
        #expect(harness.manager.nextDeadline == nil)  // gone: no retry timer, no spinning
        let wakeups = harness.loop.wakeups
        try harness.loop.runOnce(timeoutMilliseconds: 50)
        #expect(harness.loop.wakeups == wakeups + 1)

        // It returns.
        _ = harness.fifo("knob", mode: 0o600)
        try harness.run { harness.log.count == 3 }
        #expect(harness.log == ["added knob", "removed knob", "added knob"])
    }

    @Test("discovery takes new event nodes it wants and leaves the others")
    func discovery() throws {
        let harness = try ManagerHarness(wants: { _ in [] }, discover: true, wanted: { $0.hasSuffix("event3") })
        _ = harness.fifo("event3", mode: 0o600)
        _ = harness.fifo("event4", mode: 0o600)
        _ = harness.fifo("mouse0", mode: 0o600)
        try harness.run { harness.log.count == 1 }
        try harness.loop.runOnce(timeoutMilliseconds: 50)
        #expect(harness.log == ["added \(harness.directory)/event3"])
        #expect(harness.manager.openDevices.map(\.path) == [harness.directory + "/event3"])
    }
}
