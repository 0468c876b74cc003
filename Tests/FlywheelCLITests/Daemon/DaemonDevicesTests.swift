import FlywheelCore
import Glibc
import Testing

/// flywheeld with hardware input and no device yet: what a music box sees at boot before its knob
/// is plugged in. (Real evdev and GPIO devices come in the kernel test lane.)
@Suite("flywheeld devices", .serialized)
struct DaemonDevicesTests {
    @Test("started before /dev/input exists, it serves; a node that is not an input device is named and waited on, never fatal")
    func bootWithoutDevices() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        let client = try TestClient(daemon.socketPath)
        let hello = try #require(client.next())
        #expect(hello["devices"] == .array([]))

        // The input directory appears (the first device), with a node that is not an evdev device.
        #expect(mkdir(daemon.directory + "/input", 0o755) == 0)
        let node = daemon.directory + "/input/event5"
        RepositoryPaths.write("not a device\n", to: node)
        // The daemon handles the directory change in the same wakeup as this ping or earlier.
        #expect(client.send("{\"cmd\":\"ping\"}"))
        #expect(client.next()?["class"] == .string("pong"))
        unlink(node)
        #expect(client.send("{\"cmd\":\"ping\"}"))
        #expect(client.next()?["class"] == .string("pong"))

        // Idle with nothing to retry: no CPU spent between two pings.
        var stat = try #require(RepositoryPaths.read("/proc/\(daemon.pid)/stat"))
        let before = DaemonLimitTests.cpuTicks(stat)
        #expect(client.send("{\"cmd\":\"ping\"}"))
        _ = client.next()
        stat = try #require(RepositoryPaths.read("/proc/\(daemon.pid)/stat"))
        #expect(DaemonLimitTests.cpuTicks(stat) - before < 50)

        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
        let log = daemon.readStderr()
        daemon.cleanup()
        let refusals = Self.notAnInputDevice.map { "\(node): libevdev_new_from_fd on \(node) failed: \($0)." }
        #expect(refusals.contains { log.contains($0) }, "\(log)")
        #expect(log.contains("Waiting for the node to change."), "\(log)")
    }

    /// How the system refuses libevdev's EVIOCGVERSION on a regular file: ENOTTY (ioctl(2)). Under
    /// qemu-user (the arm64 lane runs the suite so, FLYWHEEL_LANE=arm64) the emulator answers an ioctl
    /// it does not translate for a regular file with ENOSYS instead: the same refusal, named by the
    /// emulator, accepted there only.
    static let notAnInputDevice: [String] = ["Inappropriate ioctl for device (ENOTTY)"]
        + (getenv("FLYWHEEL_LANE").map { String(cString: $0) } == "arm64" ? ["Function not implemented (errno 38)"] : [])

    @Test("flywheel devices lists what it finds and why it cannot open it; flywheel record names what failed")
    func listing() throws {
        var template = Array("/tmp/flywheel-devlist-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            unlink(directory + "/event12")
            rmdir(directory)
        }
        let empty = ToolRun.run(["devices", "--input-dir", directory, "--gpio-dir", directory])
        #expect(empty.status == 0)
        #expect(empty.out == "No input devices in \(directory).\nNo GPIO chips in \(directory) that can be opened.\n")
        RepositoryPaths.write("", to: directory + "/event12")
        let listed = ToolRun.run(["devices", "--input-dir", directory, "--gpio-dir", directory, "--json"])
        #expect(listed.status == 0)
        guard case .array(let rows) = try JSONParser.parse(Array(listed.out.utf8)), let row = rows.first else {
            Issue.record("devices --json printed no JSON array: \(listed.out)")
            return
        }
        #expect(row["path"] == .string(directory + "/event12"))
        #expect(Self.notAnInputDevice.contains { row["error"]?.stringValue?.contains($0) == true }, "\(row)")
        let record = ToolRun.run(["record", directory + "/event12"])
        #expect(record.status == 1 && record.err.contains("libevdev_new_from_fd on \(directory)/event12 failed"))
        let gpio = ToolRun.run(["record", "--gpio", "nochip"])
        #expect(gpio.status == 2 && gpio.err == "flywheel: --gpio takes [CHIP:]A,B such as 17,27 (the Raspberry Pi header) or gpiochip0:17,27, not 'nochip'.\n")
        // Without a chip, the Raspberry Pi header's: none here, so an error saying how to name one.
        let header = ToolRun.run(["record", "--gpio", "17,27"])
        #expect(header.status == 1 && header.err.contains("the Raspberry Pi header's GPIO chip in /dev failed") && header.err.contains("flywheel devices"), "\(header.err)")
        let missing = ToolRun.run(["record", "--gpio", "flywheel-no-such-chip:1,2"])
        // libgpiod 1.6 looks the chip up itself (gpiod_chip_open_lookup); with 2.x, which has no lookup, the
        // last gpiod_chip_open fails.
        #expect(missing.status == 1 && missing.err.hasPrefix("flywheel: gpiod_chip_open") && missing.err.contains(" on flywheel-no-such-chip failed"))
    }
}
