import FlywheelCore
import Glibc
import Testing

/// `flywheel devices` and `flywheel record` on what is not a device, and no GPIO chip. (flywheeld
/// waiting for its devices: DeviceWaitTests, in process; real evdev and GPIO devices come in the
/// kernel test lane.)
@Suite("flywheeld devices", .serialized)
struct DaemonDevicesTests {
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
        #expect(record.status == 1 && record.err.contains("cannot read \(directory)/event12 as an input device"))
        let gpio = ToolRun.run(["record", "--gpio", "nochip"])
        #expect(gpio.status == 2 && gpio.err == "flywheel: --gpio takes [CHIP:]A,B such as 17,27 (the Raspberry Pi header) or gpiochip0:17,27, not 'nochip'.\n")
        // Without a chip, the Raspberry Pi header's: none here, so an error saying how to name one.
        let header = ToolRun.run(["record", "--gpio", "17,27"])
        #expect(header.status == 1 && header.err.contains("cannot open the Raspberry Pi header's GPIO chip in /dev") && header.err.contains("flywheel devices"), "\(header.err)")
        let missing = ToolRun.run(["record", "--gpio", "flywheel-no-such-chip:1,2"])
        // libgpiod 1.6 looks the chip up itself (gpiod_chip_open_lookup); with 2.x, which has no lookup, the
        // last gpiod_chip_open fails: either way the sentence names the chip, not the function.
        #expect(missing.status == 1 && missing.err.hasPrefix("flywheel: cannot open the GPIO chip flywheel-no-such-chip: ") && !missing.err.contains("gpiod_"))
    }
}
