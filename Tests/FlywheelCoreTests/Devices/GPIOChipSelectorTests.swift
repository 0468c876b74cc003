import FlywheelCore
import Testing

@Suite("The Raspberry Pi header's GPIO chip, found by label")
struct GPIOChipSelectorTests {
    /// Chip labels in the kernel's order (gpiochip0 first), as `gpiodetect` lists them on each board.
    static let layouts: [(board: String, labels: [String], header: Int?)] = [
        // Pi 5 before kernel 6.6.47 (September 2024): the SoC's four banks come first, RP1 is gpiochip4.
        ("Pi 5, kernel before 6.6.47",
         ["gpio-brcmstb@107d508500", "gpio-brcmstb@107d508520", "gpio-brcmstb@107d517c00", "gpio-brcmstb@107d517c20", "pinctrl-rp1"], 4),
        // Pi 5 from 6.6.47 on: RP1 is gpiochip0, the SoC's banks follow (gpiochip10 to 13).
        ("Pi 5, kernel 6.6.47 and later",
         ["pinctrl-rp1", "gpio-brcmstb@107d508500", "gpio-brcmstb@107d508520", "gpio-brcmstb@107d517c00", "gpio-brcmstb@107d517c20"], 0),
        ("Pi 4", ["pinctrl-bcm2711", "raspberrypi-exp-gpio"], 0),
        ("Pi Zero 2 W", ["pinctrl-bcm2835", "raspberrypi-exp-gpio"], 0),
        // An I/O expander listed before the header does not take its place.
        ("Pi 4 with an MCP23017 first", ["mcp23017", "pinctrl-bcm2711"], 1),
        ("a PC with a USB GPIO adapter", ["ftdi-cbus"], nil),
        ("no chips", [], nil),
    ]

    @Test("the header is the chip with a Raspberry Pi header's label, whatever its number", arguments: 0..<layouts.count)
    func headerByLabel(_ index: Int) {
        let layout = Self.layouts[index]
        #expect(GPIOChipSelector.headerIndex(labels: layout.labels) == layout.header, "\(layout.board)")
    }

    @Test("RP1 comes before the BCM2712's own pin controller when both are there")
    func rp1First() {
        #expect(GPIOChipSelector.headerIndex(labels: ["pinctrl-bcm2712", "pinctrl-rp1"]) == 1)
    }

    @Test("a configuration's chip: left out or \"header\" is the header; anything else is a chip by name")
    func configured() {
        #expect(GPIOChipSelector(configured: nil) == .header)
        #expect(GPIOChipSelector(configured: "header") == .header)
        #expect(GPIOChipSelector(configured: "gpiochip4") == .named("gpiochip4"))
        #expect(GPIOChipSelector.header.description == "header" && GPIOChipSelector.named("gpiochip0").description == "gpiochip0")
    }
}
