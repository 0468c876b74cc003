import FlywheelCore
import Glibc
import Testing

@testable import FlywheelIO

@Suite("GPIO lines through either libgpiod API")
struct GPIOLinesTests {
    @Test("the shim's half matches the libgpiod it was built against: 1.x has the v1 API, 2.x the v2")
    func apiMatchesVersion() {
        let api = LibraryVersions.gpiodAPI
        #expect(api == 1 || api == 2)
        #expect(LibraryVersions.gpiod.hasPrefix("\(api)."))
    }

    @Test("a chip that does not exist is an error naming the libgpiod function, the chip and ENOENT")
    func missingChip() {
        #expect {
            try GPIOLines(chip: "flywheel-no-such-chip", a: "1", b: "2", button: nil)
        } throws: { error in
            guard let error = error as? SystemError else { return false }
            return error.function.hasPrefix("gpiod_chip_open") && error.subject == "flywheel-no-such-chip" && error.errno == ENOENT
        }
        #expect(!GPIOLines.isRequested(chip: "flywheel-no-such-chip", offset: 0))
    }

    @Test("without a Raspberry Pi header chip, the header is ENOENT (waited for) with a hint to name the chip")
    func noHeader() throws {
        var template = Array("/tmp/flywheel-gpio-XXXXXX".utf8CString)
        let empty = String(cString: try #require(mkdtemp(&template)))
        defer { rmdir(empty) }
        #expect {
            try GPIOLines(chip: .header, a: "GPIO17", b: "GPIO27", button: nil, directory: empty)
        } throws: { error in
            guard let error = error as? SystemError else { return false }
            return error.errno == ENOENT && error.subject.contains("Raspberry Pi header")
                && error.description.contains("pinctrl-rp1") && error.description.contains("flywheel devices")
        }
        // A named chip with no header around: the plain error, no hint.
        #expect(GPIOLines.hintingHeader(SystemError(function: "gpiod_chip_open_lookup", subject: "gpiochip4", errno: ENOENT), in: empty).hint == nil)
    }
}
