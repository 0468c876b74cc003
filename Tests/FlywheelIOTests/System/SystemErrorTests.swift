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
                == "cannot open /dev/input/event3: Permission denied (EACCES).")
        #expect(SystemError(function: "libevdev_uinput_create_from_device", subject: "/dev/uinput", errno: ENOENT).description
                == "cannot make a virtual input device with /dev/uinput: No such file or directory (ENOENT). Load the uinput module: sudo modprobe uinput.")
    }

    @Test("no C function's name in a sentence unless --verbose asks for it")
    func verbose() {
        let error = SystemError(function: "libevdev_next_event", subject: "/dev/input/event1", errno: ENODEV)
        let named = SystemError.namesFunctions.load(ordering: .relaxed)
        #expect(!named)
        #expect(error.description == "cannot read the events of /dev/input/event1: No such device (ENODEV).")
        #expect(error.sentence(namingFunction: true) == "libevdev_next_event on /dev/input/event1 failed: No such device (ENODEV).")
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
