/// Which GPIO chip an encoder's lines are on: the Raspberry Pi's 40-pin header, whatever the
/// kernel numbered it, or a chip named by the configuration.
public enum GPIOChipSelector: Sendable, Hashable, CustomStringConvertible {
    /// The chip behind the Raspberry Pi's header, found by its label (``headerLabels``): a
    /// configuration that leaves out `chip` (or says `chip: "header"`) means it.
    case header
    /// A chip by name (`gpiochip0`), path (`/dev/gpiochip0`), number or label, as libgpiod looks it up.
    case named(String)

    /// The word a configuration uses for the header (`chip: "header"`).
    package static let headerWord = "header"

    /// The labels of the header's chip on each Raspberry Pi, in the order they are looked for: the
    /// Pi 5's RP1 (`pinctrl-rp1`; kernels before 6.6.47 numbered it gpiochip4, later ones
    /// gpiochip0), the BCM2712 (a Pi 5 device tree without RP1's), the Pi 4's BCM2711 and the
    /// BCM2835 family (Pi 1–3, Zero, Zero 2 W). The first of these that exists is the header.
    public static let headerLabels = ["pinctrl-rp1", "pinctrl-bcm2712", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    /// The selector a configuration's `chip` value means: nil or `"header"` is the header.
    public init(configured chip: String?) {
        if let chip, chip != Self.headerWord { self = .named(chip) } else { self = .header }
    }

    /// Among chips with these labels, the index of the header's (the first label of
    /// ``headerLabels`` that one of them has), or nil when none is a Raspberry Pi header.
    public static func headerIndex(labels: [String]) -> Int? {
        for wanted in headerLabels {
            if let index = labels.firstIndex(of: wanted) { return index }
        }
        return nil
    }

    /// `header`, or the chip as configured.
    public var description: String {
        switch self {
        case .header: Self.headerWord
        case .named(let chip): chip
        }
    }
}
