import FlywheelCore

/// An emulation of the Linux `rotary-encoder` driver's decoding (the interrupt handlers of
/// `drivers/input/misc/rotary_encoder.c`, described in
/// `Documentation/input/devices/rotary-encoder.rst`), fed with one A/B state per GPIO edge.
///
/// The driver numbers the four states 0…3 along the Gray cycle. Here state 0 is the profile's
/// rest state and the numbers increase in Flywheel's positive direction (A leads B); that is
/// the wiring (GPIO order, active-low flags) under which the driver's idea of a step agrees
/// with the detents. In the kernel source the modes do not all agree on which way is
/// "clockwise"; the emulation reports Flywheel's positive direction as +1 in every mode.
///
/// - Full period (`steps-per-period` 1, a detent every 4 quarter steps): reaching state 2 (half
///   way) *arms* the decoder; while armed, states 1 and 3 record the direction (3 means the knob
///   is arriving from the positive side); reaching state 0 while armed reports one step in the
///   recorded direction and disarms. It never checks that a full period went by: a knob that goes
///   half way into a step (state 2) and comes back reports a step in the direction it came back,
///   so bounce or a wiggle part-way into a step and back counts a false step.
/// - Half period (2): states 1 and 3 record the direction relative to the last stable state (0 or
///   2); reaching the other stable state reports a step.
/// - Quarter period (4): every move to a neighbouring state reports a step.
///
/// Relative axes report ±1 per step (a zero value is never sent, as the input core drops it);
/// absolute axes report the position `0...steps`, clamped or wrapped (`rollover`), and only when
/// it changes. Every report is followed by `SYN_REPORT`. Not modelled: the threaded interrupt
/// reading the lines some time after the edge (each edge's own state is used).
public struct KernelRotaryEncoder: Sendable {
    /// `rotary-encoder,steps-per-period`.
    public enum Mode: Int, Sendable, Hashable, CaseIterable {
        /// One step per Gray period (4 quarter steps; the default).
        case fullPeriod = 1
        /// Two steps per period.
        case halfPeriod = 2
        /// Four steps per period.
        case quarterPeriod = 4

        /// The mode whose step is one detent of `stepsPerDetent` quarter steps.
        public init(stepsPerDetent: StepsPerDetent) {
            switch stepsPerDetent {
            case .four: self = .fullPeriod
            case .two: self = .halfPeriod
            case .one: self = .quarterPeriod
            }
        }
    }

    /// The decoding mode.
    public let mode: Mode
    /// The rest state (the driver's state 0).
    public let rest: QuadratureLevels
    /// The evdev axis (`linux,axis`): relative or absolute.
    public let axis: EvdevAxis
    /// `rotary-encoder,steps`: the absolute axis runs `0...steps`.
    public let steps: Int
    /// `rotary-encoder,rollover`.
    public let rollover: Bool

    /// Net steps reported so far (the sum of the relative values).
    public private(set) var net = 0
    /// The absolute position.
    public private(set) var position = 0

    var armed = false
    var direction = 0
    var lastStable: Int

    /// Creates a driver that starts with the lines at `initial`.
    public init(
        mode: Mode, rest: QuadratureLevels, initial: QuadratureLevels, axis: EvdevAxis, steps: Int = 24,
        rollover: Bool = false
    ) {
        self.mode = mode
        self.rest = rest
        self.axis = axis
        self.steps = max(1, steps)
        self.rollover = rollover
        self.lastStable = 0
        self.lastStable = state(of: initial)
    }

    /// The driver's state number for some levels: 0 at rest, increasing in the positive direction.
    func state(of levels: QuadratureLevels) -> Int {
        ((levels.phase - rest.phase) % 4 + 4) % 4
    }

    /// Handles the interrupt for one edge: the lines now read `levels`. Returns the events sent
    /// (none, or a value and `SYN_REPORT`), stamped `time`.
    public mutating func handle(_ levels: QuadratureLevels, at time: Nanoseconds) -> [InputEvent] {
        let s = state(of: levels)
        switch mode {
        case .fullPeriod:
            switch s {
            case 0:
                guard armed else { return [] }
                armed = false
                return report(direction, at: time)
            case 2:
                armed = true
            default:
                if armed { direction = s == 3 ? 1 : -1 }
            }
            return []
        case .halfPeriod:
            if s % 2 == 1 {
                direction = s == (lastStable + 1) % 4 ? 1 : -1
                return []
            }
            guard s != lastStable else { return [] }
            lastStable = s
            return report(direction, at: time)
        case .quarterPeriod:
            let previous = lastStable
            lastStable = s
            if s == (previous + 1) % 4 { return report(1, at: time) }
            if s == (previous + 3) % 4 { return report(-1, at: time) }
            return []
        }
    }

    mutating func report(_ step: Int, at time: Nanoseconds) -> [InputEvent] {
        if axis.isRelative {
            guard step != 0 else { return [] }
            net += step
            return [
                InputEvent(timeNanoseconds: time, type: EventType.rel, code: axis.code, value: Int32(step)),
                .synReport(at: time),
            ]
        }
        var next = position
        if step < 0 {
            if rollover { next += steps }
            if next > 0 { next -= 1 }
        } else if rollover || next < steps {
            next += 1
        }
        if rollover { next %= steps }
        net += step < 0 ? -1 : 1
        guard next != position else { return [] }
        position = next
        return [
            InputEvent(timeNanoseconds: time, type: EventType.abs, code: axis.code, value: Int32(next)),
            .synReport(at: time),
        ]
    }

    /// The driver's events for a whole GPIO trace.
    public static func events(
        for trace: QuadratureTrace, mode: Mode, rest: QuadratureLevels, axis: EvdevAxis, steps: Int = 24,
        rollover: Bool = false
    ) -> [InputEvent] {
        var driver = KernelRotaryEncoder(
            mode: mode, rest: rest, initial: trace.initial, axis: axis, steps: steps, rollover: rollover)
        var events: [InputEvent] = []
        for sample in trace.samples {
            events.append(contentsOf: driver.handle(sample.levels, at: sample.timeNanoseconds))
        }
        return events
    }
}
