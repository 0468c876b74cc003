
/// What kind of device it is: the kinds a profile describes, and what the classifier makes of other
/// evdev nodes. Its raw value is its name in profiles and the protocol.
public enum DeviceKind: String, Sendable, Hashable, CaseIterable {
    /// A detented rotary encoder (EC11, KY-040).
    case encoder
    /// A free-spinning dial without clicks, or with very fine ones (PowerMate).
    case jogDial = "jog-dial"
    /// A jog wheel inside a spring-loaded shuttle ring (ShuttleXpress, ShuttlePRO).
    case jogShuttle = "jog-shuttle"
    /// A scroll wheel.
    case wheel
    /// A tablet's touch ring (ABS_WHEEL).
    case tabletRing = "tablet-ring"
    /// A tablet's touch strip (ABS_RX).
    case tabletStrip = "tablet-strip"
    /// A touch panel.
    case touch
    /// A mouse or touchpad (left alone).
    case pointer
    /// Buttons only (gpio-keys).
    case buttons
    /// A keyboard (used only when configured).
    case keyboard
    /// Nothing Flywheel knows.
    case other
    /// A simulated device (`flywheeld --simulate`).
    case simulated
    /// A recording played back (`flywheeld --replay`).
    case replay

    /// The kinds a `hardware/` profile may describe.
    package static let profileKinds: [DeviceKind] = [.encoder, .jogDial, .jogShuttle, .wheel]
}

/// How the host sees the device: raw GPIO edges, or evdev events from a particular driver.
public enum ReportKind: String, Sendable, Hashable, CaseIterable {
    /// Raw A/B edges through libgpiod; no evdev device.
    case gpio
    /// The kernel `rotary-encoder` driver with `rotary-encoder,relative-axis`: ±1 per step.
    case rotaryEncoderRelative = "rotary-encoder-rel"
    /// The kernel `rotary-encoder` driver on an absolute axis `0...steps` (clamped, or wrapped with
    /// `rotary-encoder,rollover`).
    case rotaryEncoderAbsolute = "rotary-encoder-abs"
    /// Griffin PowerMate: a signed `REL_DIAL` delta per USB report, capped per report.
    case powermateDial = "powermate-dial"
    /// Contour ShuttleXpress/ShuttlePRO jog wheel: `REL_DIAL` carries an 8-bit wrapping counter.
    case shuttleCounter = "shuttle-counter"
    /// A USB high-resolution wheel: `REL_WHEEL` per detent plus `REL_WHEEL_HI_RES` at 120 per detent.
    case hiresWheel = "hires-wheel"

    /// Whether reports come from a USB device's firmware at each poll.
    public var isUSB: Bool {
        switch self {
        case .powermateDial, .shuttleCounter, .hiresWheel: return true
        case .gpio, .rotaryEncoderRelative, .rotaryEncoderAbsolute: return false
        }
    }

    /// Whether the kernel `rotary-encoder` driver produces the events.
    package var isKernelRotaryEncoder: Bool { self == .rotaryEncoderRelative || self == .rotaryEncoderAbsolute }
}

/// What a USB device's firmware counts.
public enum FirmwareCounting: String, Sendable, Hashable, CaseIterable {
    /// Whole detents, decoded at the rest states (the counter moves once per click).
    case detents
    /// Every quarter step, so partial detents show (smooth dials, high-resolution wheels).
    case quarterSteps = "quarter-steps"
}

/// A USB vendor and product id.
public struct USBID: Hashable, Sendable, CustomStringConvertible {
    /// Vendor id.
    public var vendor: UInt16
    /// Product id.
    public var product: UInt16

    /// Creates an id.
    public init(vendor: UInt16, product: UInt16) {
        self.vendor = vendor
        self.product = product
    }

    /// `vvvv:pppp` in lower-case hex, as `lsusb` prints it.
    public var description: String { hex4(vendor) + ":" + hex4(product) }

    func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}

/// Contact bounce: on every transition of a line, an even number of extra toggles within a
/// window after it, so the line ends at its intended level.
public struct BounceSettings: Hashable, Sendable {
    /// How many extra toggles (odd bounds are rounded inward to even numbers).
    public var toggles: ClosedRange<Int>
    /// How long after the transition the toggles may come, in nanoseconds.
    public var windowNanoseconds: ClosedRange<Nanoseconds>

    /// Creates bounce settings.
    public init(toggles: ClosedRange<Int>, windowNanoseconds: ClosedRange<Nanoseconds>) {
        self.toggles = toggles
        self.windowNanoseconds = windowNanoseconds
    }

    /// No bounce at all (optical and magnetic encoders).
    public static let none = BounceSettings(toggles: 0...0, windowNanoseconds: 0...0)

    /// `toggles 0..6 window 0.05ms..3ms`, the form profiles and scenarios use.
    public var text: String {
        "toggles \(toggles.lowerBound)..\(toggles.upperBound) window "
            + "\(ValueText.durationText(windowNanoseconds.lowerBound))..\(ValueText.durationText(windowNanoseconds.upperBound))"
    }
}

/// Chatter: brief spurious pulses (a line toggles and returns) while the contacts are otherwise
/// quiet, at random times (a Poisson process).
public struct ChatterSettings: Hashable, Sendable {
    /// Mean pulses per second.
    public var ratePerSecond: Double
    /// How long each pulse lasts, in nanoseconds.
    public var widthNanoseconds: ClosedRange<Nanoseconds>

    /// Creates chatter settings.
    public init(ratePerSecond: Double, widthNanoseconds: ClosedRange<Nanoseconds>) {
        self.ratePerSecond = ratePerSecond
        self.widthNanoseconds = widthNanoseconds
    }
}

/// One device's mechanics, contacts and reporting, parsed from a `.profile` file
/// (see `hardware/PROFILES.md`).
public struct DeviceProfile: Hashable, Sendable {
    /// Short identifier that scenarios name with `device <id>`.
    public var id: String
    /// Human-readable name.
    public var name: String
    /// The physical control.
    public var kind: DeviceKind
    /// USB vendor:product, for USB devices.
    public var usb: USBID?
    /// What the host sees.
    public var report: ReportKind
    /// Detents (clicks) in one full turn.
    public var detentsPerRevolution: Int
    /// Quarter steps per detent.
    public var stepsPerDetent: StepsPerDetent
    /// The A/B levels at a detent.
    public var rest: QuadratureLevels
    /// Counts per full turn (evdev devices): the USB firmware's counts, or the kernel
    /// `rotary-encoder,steps` for an absolute axis.
    public var countsPerTurn: Int?
    /// What the USB firmware counts.
    public var counting: FirmwareCounting
    /// Contact bounce of the A/B lines and of the button.
    public var bounce: BounceSettings
    /// Chatter, if the contacts chatter at rest.
    public var chatter: ChatterSettings?
    /// USB polling interval (USB devices).
    public var usbPollIntervalNanoseconds: Nanoseconds?
    /// The most a single report can carry (PowerMate: 7); the firmware carries the rest over.
    public var maxDeltaPerReport: Int?
    /// The evdev axis the rotation is reported on.
    public var axis: EvdevAxis?
    /// `rotary-encoder,rollover` for an absolute axis.
    public var rollover: Bool
    /// Button key codes; the first is the one `press` without a name uses.
    public var buttons: [UInt16]
    /// Button debounce: gpio-keys `debounce-interval`, or the USB firmware's.
    public var buttonDebounceNanoseconds: Nanoseconds
    /// Interrupt latency range: how much later than the contact edge the kernel timestamps it.
    public var interruptLatencyNanoseconds: ClosedRange<Nanoseconds>
    /// The ShuttleXpress counter's value at the start (0...255).
    public var counterStart: Int

    /// Creates a profile (normally through ``parse(_:file:)``).
    public init(
        id: String, name: String, kind: DeviceKind, usb: USBID? = nil, report: ReportKind,
        detentsPerRevolution: Int, stepsPerDetent: StepsPerDetent, rest: QuadratureLevels,
        countsPerTurn: Int? = nil, counting: FirmwareCounting = .detents, bounce: BounceSettings = .none,
        chatter: ChatterSettings? = nil, usbPollIntervalNanoseconds: Nanoseconds? = nil,
        maxDeltaPerReport: Int? = nil, axis: EvdevAxis? = nil, rollover: Bool = false, buttons: [UInt16] = [],
        buttonDebounceNanoseconds: Nanoseconds = 5_000_000,
        interruptLatencyNanoseconds: ClosedRange<Nanoseconds> = 3_000...25_000, counterStart: Int = 0
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.usb = usb
        self.report = report
        self.detentsPerRevolution = detentsPerRevolution
        self.stepsPerDetent = stepsPerDetent
        self.rest = rest
        self.countsPerTurn = countsPerTurn
        self.counting = counting
        self.bounce = bounce
        self.chatter = chatter
        self.usbPollIntervalNanoseconds = usbPollIntervalNanoseconds
        self.maxDeltaPerReport = maxDeltaPerReport
        self.axis = axis
        self.rollover = rollover
        self.buttons = buttons
        self.buttonDebounceNanoseconds = buttonDebounceNanoseconds
        self.interruptLatencyNanoseconds = interruptLatencyNanoseconds
        self.counterStart = counterStart
    }

    /// Firmware or driver counts per detent: `countsPerTurn / detentsPerRevolution` for USB
    /// devices, 1 for the kernel `rotary-encoder` driver (one event per detent), nil for GPIO.
    public var countsPerDetent: Int? {
        if report.isKernelRotaryEncoder { return 1 }
        guard report.isUSB, let countsPerTurn, detentsPerRevolution > 0 else { return nil }
        return countsPerTurn / detentsPerRevolution
    }

    /// The kernel `rotary-encoder,steps-per-period` matching this detent size (4 / steps per detent).
    package var kernelStepsPerPeriod: Int { 4 / stepsPerDetent.rawValue }
}
