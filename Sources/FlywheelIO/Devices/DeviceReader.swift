import FlywheelCore

/// An open device as the device manager drives it: descriptors to watch, and what reading them
/// means. The evdev and GPIO backends are readers; tests give the manager readers of their own.
public protocol DeviceReader: AnyObject {
    /// Descriptors to watch for input.
    var fds: [Int32] { get }
    /// What it is (`jog-dial`, `encoder`, `touch`, …), for `device` messages.
    var kind: DeviceKind { get }
    /// The profile it matched, if any.
    var profileID: String? { get }
    /// Reads what is waiting. Throws when the device is gone or failing.
    func read() throws(SystemError) -> [DeviceInput]
    /// When ``expire(at:)`` is next needed (button debounce, a shuttle ring's silent return).
    var nextDeadline: Nanoseconds? { get }
    /// Time passed with no input.
    func expire(at time: Nanoseconds) -> [DeviceInput]
    /// Feedback: the metronome beat (a device with a light pulses it).
    func beat(at time: Nanoseconds)
    /// Closes the device.
    func close()
}

extension DeviceReader {
    public func beat(at time: Nanoseconds) {}
}

/// The evdev backend: a libevdev device and the interpreter for its class.
public final class EvdevReader: DeviceReader {
    /// The device.
    public let device: EvdevDevice
    var interpreter: EvdevInterpreter
    /// Whether to pulse its LED on the beat (PowerMate).
    public var pulsesOnBeat = false

    /// Wraps an open device classified as `classification`; an absolute encoder counts from its
    /// axis's value as libevdev has it now.
    public init(device: EvdevDevice, classification: EvdevClassification) {
        self.device = device
        self.interpreter = EvdevInterpreter(classification)
        if case .absoluteEncoder? = classification.knob { interpreter.start(absoluteValues: device.absoluteValues()) }
    }

    public var fds: [Int32] { [device.fd] }
    public var kind: DeviceKind { interpreter.classification.kind }
    public var profileID: String? { interpreter.classification.profileID }
    public var nextDeadline: Nanoseconds? { [interpreter.nextDeadline, ledOffAt].compactMap { $0 }.min() }
    var ledOffAt: Nanoseconds?
    /// How long the LED stays lit on a beat.
    public static let beatFlashNanoseconds: Nanoseconds = 80_000_000

    public func read() throws(SystemError) -> [DeviceInput] {
        var out: [DeviceInput] = []
        for reading in try device.read() {
            switch reading {
            case .event(let event): out += interpreter.feed(event)
            case .resynchronised(let buttons, let values, let time):
                out += interpreter.resynchronise(buttonsDown: buttons, absoluteValues: values, at: time)
            }
        }
        return out
    }

    public func expire(at time: Nanoseconds) -> [DeviceInput] {
        if let off = ledOffAt, time >= off {
            ledOffAt = nil
            setLED(0)
        }
        return interpreter.expire(at: time)
    }

    /// Whether the device has a light Flywheel can drive (the PowerMate's MSC_PULSELED).
    public var hasLED: Bool { device.writable && device.description.has(EventType.msc, MscCode.pulseLED) }

    /// Flashes the LED on the beat: full static brightness (the low byte of MSC_PULSELED, no
    /// pulsing bits), off again ``beatFlashNanoseconds`` later.
    public func beat(at time: Nanoseconds) {
        guard pulsesOnBeat, hasLED else { return }
        setLED(255)
        ledOffAt = time + Self.beatFlashNanoseconds
    }

    func setLED(_ brightness: Int32) {
        // A failed write (unplugged) shows up on the next read; feedback never stops input.
        try? device.write(type: EventType.msc, code: MscCode.pulseLED, value: brightness)
        try? device.write(type: EventType.syn, code: SynCode.report, value: 0)
    }

    public func close() { device.close() }
}

/// The GPIO backend: an encoder's lines and the edge interpreter.
public final class GPIOReader: DeviceReader {
    /// The lines.
    public let lines: GPIOLines
    var interpreter: GPIOEdgeInterpreter
    public let profileID: String?

    /// Requests the lines and reads their levels to start from.
    public init(lines: GPIOLines, stepsPerDetent: StepsPerDetent, rest: QuadratureLevels?, buttonDebounceNanoseconds: Nanoseconds, profileID: String?) throws(SystemError) {
        self.lines = lines
        let levels = try lines.levels()
        self.interpreter = GPIOEdgeInterpreter(
            stepsPerDetent: stepsPerDetent, initial: levels.quadrature, rest: rest, buttonLevel: levels.button ?? true,
            buttonDebounceNanoseconds: buttonDebounceNanoseconds)
        self.profileID = profileID
    }

    public var fds: [Int32] { lines.fds }
    public var kind: DeviceKind { .encoder }
    public var nextDeadline: Nanoseconds? { [interpreter.nextDeadline, settleAt].compactMap { $0 }.min() }
    /// The levels read at the request are provisional: a pull-up just applied takes a moment to
    /// charge the line. They are read again this long after it.
    public static let settleNanoseconds: Nanoseconds = 20_000_000
    var settleAt: Nanoseconds? = MonotonicClock.now() + GPIOReader.settleNanoseconds

    /// Reads the edges, then the lines' levels: with no event pending they are the truth the toggles
    /// must agree with (an edge the interrupt merged away is corrected at once); an edge stamped
    /// before that read which arrives later is already in it. A full kernel buffer is a gap.
    public func read() throws(SystemError) -> [DeviceInput] {
        let (edges, possiblyLost) = try lines.readEdges()
        var out = interpreter.feed(edges)
        guard let last = edges.last?.timeNanoseconds else { return out }
        let levels = try lines.levels()
        let readAt = MonotonicClock.now()
        if possiblyLost {
            out += interpreter.overflow(levels: levels.quadrature, at: last)
        } else if try !lines.hasPendingEvents() {
            out += interpreter.reconcile(levels: levels.quadrature, button: levels.button, at: readAt)
        }
        return out
    }

    public func expire(at time: Nanoseconds) -> [DeviceInput] {
        if let due = settleAt, time >= due {
            settleAt = nil
            if let levels = try? lines.levels(), (try? lines.hasPendingEvents()) == false {
                interpreter.settle(levels: levels.quadrature, button: levels.button, at: MonotonicClock.now())
            }
        }
        return interpreter.expire(at: time)
    }
    public func close() { lines.close() }
}
