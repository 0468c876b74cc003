import FlywheelCore

/// Everything one simulation produced: the ground truth, and what the host would see at each
/// layer.
public struct SimulationResult: Hashable, Sendable {
    /// The profile as simulated (with the scenario's overrides applied).
    public var profile: DeviceProfile
    /// The seed used.
    public var seed: UInt64
    /// Ground truth: net detents the knob moved (where it came to rest relative to its start).
    public var truthDetents: Int
    /// Ground truth for buttons: how many presses the script made.
    public var truthPresses: Int
    /// What each gesture did.
    public var gestures: [GestureRecord]
    /// The knob's motion, in closed-form segments.
    public var motion: [MotionSegment]
    /// The intended line changes (no bounce).
    public var transitions: [ContactTransition]
    /// The A/B contacts: intended changes plus bounce and chatter, at the contacts' own times.
    public var contactTrace: QuadratureTrace
    /// The same edges as libgpiod reports them: kernel timestamps (interrupt latency added).
    public var gpioTrace: QuadratureTrace
    /// evdev events of the device node carrying the rotation, for the profile's report kind
    /// (kernel `rotary-encoder` driver or USB device, buttons included for USB devices); empty for
    /// `gpio`.
    public var inputEvents: [InputEvent]
    /// USB reports as the firmware sent them (USB devices only).
    public var usbReports: [USBReport]
    /// The button switch contacts, bounce included.
    public var buttonEdges: [ButtonEdge]
    /// The debounced button changes (gpio-keys or the USB firmware).
    public var debouncedButtonEdges: [ButtonEdge]
    /// evdev events of a gpio-keys node for a GPIO-wired button (`gpio` and `rotary-encoder-*`
    /// profiles); empty for USB devices, whose buttons are in ``inputEvents``.
    public var gpioKeyEvents: [InputEvent]
    /// When the simulation ended, in nanoseconds.
    public var endNanoseconds: Nanoseconds

    /// The truth in the device's evdev counts (detents × counts per detent), when it has them.
    public var truthCounts: Int? { profile.countsPerDetent.map { $0 * truthDetents } }
}

/// A seeded simulation of one scenario on one device: mechanics → contacts → GPIO/driver/firmware.
///
/// Deterministic: the same scenario, profile and seed give an identical ``SimulationResult``.
/// No clock is read; all times are integer nanoseconds from the start of the scenario.
public struct Simulation: Sendable {
    /// The scenario.
    public let scenario: Scenario
    /// The profile with the scenario's overrides (bounce, chatter, counter) applied.
    public let profile: DeviceProfile
    /// The seed.
    public let seed: UInt64
    /// Hand and mechanism constants (friction from the scenario).
    public var mechanics: MechanicsSettings

    /// Prepares a simulation.
    /// - Parameters:
    ///   - scenario: the script.
    ///   - profile: the device; its id must be the scenario's `device`.
    ///   - seed: overrides the scenario's `seed` (which defaults to 1).
    /// - Throws: ``ScenarioError`` when the scenario names another device, presses a button the
    ///   device does not have, presses a button already down or releases one that is up.
    public init(scenario: Scenario, profile: DeviceProfile, seed: UInt64? = nil) throws {
        guard scenario.device == profile.id else {
            throw ScenarioError(
                file: scenario.file, line: scenario.deviceLine,
                problem: "expected device '\(profile.id)' (the profile given), got '\(scenario.device)'")
        }
        var held: Set<UInt16> = []
        for step in scenario.steps {
            let isPress: Bool
            let named: UInt16?
            switch step.gesture {
            case .press(let button): isPress = true; named = button
            case .release(let button): isPress = false; named = button
            default: continue
            }
            let verb = isPress ? "press" : "release"
            guard let code = named ?? profile.buttons.first else {
                throw ScenarioError(
                    file: scenario.file, line: step.line,
                    problem: "expected a device with a button for '\(verb)', but '\(profile.id)' has none")
            }
            guard profile.buttons.contains(code) else {
                let names = profile.buttons.map(EvdevNames.keyName).joined(separator: ", ")
                throw ScenarioError(
                    file: scenario.file, line: step.line,
                    problem: "expected one of the buttons of '\(profile.id)' (\(names.isEmpty ? "none" : names)), got \(EvdevNames.keyName(code))")
            }
            if isPress == held.contains(code) {
                throw ScenarioError(
                    file: scenario.file, line: step.line,
                    problem: "expected \(isPress ? "a release" : "a press") of \(EvdevNames.keyName(code)) first, as it is already \(isPress ? "down" : "up")")
            }
            if isPress { held.insert(code) } else { held.remove(code) }
        }
        var effective = profile
        if let bounce = scenario.bounce { effective.bounce = bounce }
        switch scenario.chatter {
        case .none: break
        case .off?: effective.chatter = nil
        case .on(let settings)?: effective.chatter = settings
        }
        if let start = scenario.counterStart { effective.counterStart = start }
        self.scenario = scenario
        self.profile = effective
        self.seed = seed ?? scenario.seed ?? 1
        var mechanics = MechanicsSettings()
        if let friction = scenario.friction { mechanics.friction = friction }
        self.mechanics = mechanics
    }

    /// Independent random streams, so one layer drawing more does not shift the others.
    enum Stream: UInt64 {
        case hand = 1, bounce, chatter, interrupts, buttons, usb
    }

    /// Runs the simulation.
    public func run() -> SimulationResult {
        func random(_ stream: Stream) -> SeededGenerator { SeededGenerator(seed: seed, stream: stream.rawValue) }
        var hand = random(.hand)
        let plan = HandMotion.plan(
            scenario.steps.map { ($0.gesture, $0.line) }, settings: mechanics, defaultButton: profile.buttons.first,
            random: &hand)

        let transitions = QuadratureContacts.transitions(
            of: plan.segments, stepsPerDetent: profile.stepsPerDetent, rest: profile.rest)
        var bounceRandom = random(.bounce)
        var chatterRandom = random(.chatter)
        let contacts = QuadratureContacts.trace(
            transitions: transitions, rest: profile.rest, end: plan.endNanoseconds, bounce: profile.bounce,
            chatter: profile.chatter, bounceRandom: &bounceRandom, chatterRandom: &chatterRandom)
        var interrupts = random(.interrupts)
        let gpio = GPIOEvents.kernelTimestamped(
            contacts, latency: profile.interruptLatencyNanoseconds, random: &interrupts)

        var buttonRandom = random(.buttons)
        let buttonEdges = ButtonContacts.edges(
            of: plan.buttonActions, end: plan.endNanoseconds, bounce: profile.bounce, random: &buttonRandom)
        let debounced = ButtonContacts.debounced(buttonEdges, interval: profile.buttonDebounceNanoseconds)

        var inputEvents: [InputEvent] = []
        var usbReports: [USBReport] = []
        var gpioKeyEvents: [InputEvent] = []
        switch profile.report {
        case .gpio:
            gpioKeyEvents = GPIOKeys.events(for: debounced)
        case .rotaryEncoderRelative, .rotaryEncoderAbsolute:
            let axis = profile.axis ?? EvdevAxis(type: EventType.rel, code: RelCode.x, name: "REL_X")
            inputEvents = KernelRotaryEncoder.events(
                for: gpio, mode: KernelRotaryEncoder.Mode(stepsPerDetent: profile.stepsPerDetent), rest: profile.rest,
                axis: axis, steps: profile.countsPerTurn ?? profile.detentsPerRevolution, rollover: profile.rollover)
            gpioKeyEvents = GPIOKeys.events(for: debounced)
        case .powermateDial, .shuttleCounter, .hiresWheel:
            var usbRandom = random(.usb)
            let output = USBFirmware.run(
                profile: profile, contacts: contacts, debouncedButtons: debounced, end: plan.endNanoseconds,
                random: &usbRandom)
            usbReports = output.reports
            inputEvents = output.events
        }
        let presses = plan.buttonActions.filter(\.pressed).count
        return SimulationResult(
            profile: profile, seed: seed, truthDetents: plan.truthDetents, truthPresses: presses,
            gestures: plan.gestures, motion: plan.segments, transitions: transitions, contactTrace: contacts,
            gpioTrace: gpio, inputEvents: inputEvents, usbReports: usbReports, buttonEdges: buttonEdges,
            debouncedButtonEdges: debounced, gpioKeyEvents: gpioKeyEvents, endNanoseconds: plan.endNanoseconds)
    }
}
