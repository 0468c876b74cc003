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
}
