import Glibc
import Testing
@testable import FlywheelIO

@Suite("The system-call seam")
struct SystemErrorTests {
    @Test("errno becomes a sentence naming the function, the path and the error")
    func sentence() {
        #expect(throws: SystemError(function: "open", subject: "/nonexistent/x", errno: ENOENT)) {
            try FileSystem.readFile("/nonexistent/x")
        }
        #expect(SystemError(function: "open", subject: "/dev/input/event3", errno: EACCES).description
                == "open on /dev/input/event3 failed: Permission denied (EACCES).")
    }

    @Test("the core's event codes match <linux/input-event-codes.h> through libevdev's names")
    func codes() {
        let expected: [(UInt16, UInt16, String)] = [
            (2, 7, "REL_DIAL"), (2, 8, "REL_WHEEL"), (2, 0x0b, "REL_WHEEL_HI_RES"), (2, 0, "REL_X"),
            (3, 0x35, "ABS_MT_POSITION_X"), (3, 0x2f, "ABS_MT_SLOT"), (3, 0x39, "ABS_MT_TRACKING_ID"), (3, 0x28, "ABS_MISC"),
            (1, 0x100, "BTN_0"), (1, 0x14a, "BTN_TOUCH"), (0, 3, "SYN_DROPPED"), (0, 2, "SYN_MT_REPORT"), (4, 1, "MSC_PULSELED"),
        ]
        for (type, code, name) in expected {
            #expect(LibraryVersions.evdevNames(type: type, code: code)?.code == name)
        }
        #expect(LibraryVersions.gpiod.hasPrefix("1.") || LibraryVersions.gpiod.hasPrefix("2."))
    }
}
