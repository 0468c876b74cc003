import FlywheelCore
@testable import FlywheelDaemon
import Glibc
import Testing

/// flywheeld with hardware input and no device yet, in this process: what a music box sees at
/// boot before its knob is plugged in. (Real evdev and GPIO devices come in the kernel lane;
/// `flywheel devices` and `flywheel record` on such a node, in DaemonDevicesTests.)
@Suite("flywheeld waiting for devices, in process", .serialized)
@MainActor
struct DeviceWaitTests {
    /// How the system refuses libevdev's EVIOCGVERSION on a regular file: ENOTTY (ioctl(2)). Under
    /// qemu-user (the arm64 lane runs the suite so, FLYWHEEL_LANE=arm64) the emulator answers an ioctl
    /// it does not translate for a regular file with ENOSYS instead: the same refusal, named by the
    /// emulator, accepted there only.
    static let notAnInputDevice: [String] = ["Inappropriate ioctl for device (ENOTTY)"]
        + (getenv("FLYWHEEL_LANE").map { String(cString: $0) } == "arm64" ? ["Function not implemented (errno 38)"] : [])

    @Test("started before its input folder exists, it serves; a node that is not an input device is named and waited on, never fatal; nothing is armed at rest")
    func bootWithoutDevices() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        let input = daemon.directory + "/input"
        defer {
            rmdir(input)
            daemon.stop()
        }
        let client = try daemon.connect()
        let hello = try #require(try client.next())
        #expect(hello["devices"] == .array([]))

        // The input folder appears (the first device), with a node that is not an evdev device.
        #expect(mkdir(input, 0o755) == 0)
        let node = input + "/event5"
        try StripDaemonTests.write("not a device\n", to: node)
        // The daemon handles the folder's change in the turn that answers this ping or earlier.
        #expect(try client.pong())
        unlink(node)
        #expect(try client.pong())
        #expect(try client.next() == nil, "nothing more is sent")

        // Idle with nothing to retry: no timer armed, so the loop sleeps until something comes.
        #expect(daemon.daemon.loop.armedDeadline == nil)
        let refusals = Self.notAnInputDevice.map { "\(node): cannot read \(node) as an input device: \($0)." }
        #expect(daemon.said.contains { line in refusals.contains { line.contains($0) } }, "\(daemon.said)")
        #expect(daemon.said.contains { $0.contains("Waiting for the node to change.") }, "\(daemon.said)")
    }
}
