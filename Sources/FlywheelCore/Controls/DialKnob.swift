/// A knob with feel over a table of whole-number values, one per detent, increasing: the engine
/// machinery the tempo dial and the volume dial share. Each device turning the dial has its own
/// engine (a ``KnobGroup``), clamped to the table; their steps move the one shared detent and
/// become ``Step``s carrying the table's value.
public struct DialKnob: Sendable {
    /// The value of each detent, increasing (at least one).
    public let values: [Int]
    /// The knobs turning the dial, one engine per device.
    package private(set) var knobs: KnobGroup
    /// The detent the dial reports now (shared by every knob).
    public private(set) var detent: Int
    /// How far past `values[detent]` the dial is, in the values' units, after fine control or an
    /// exact `set` (0 on a table value; always less than the way to the next one).
    package private(set) var fine = 0
    /// While a move is fine: how many units a detent moves (nil: a detent is a table step).
    var fineUnits: Int?

    /// What the dial reports: its value and detent, why, and when.
    public struct Step: Sendable, Hashable {
        public var value: Int
        public var detent: Int
        public var phase: DialPhase
        public var timeNanoseconds: Nanoseconds
    }

    /// A dial over `values` (non-empty, increasing) resting at the detent nearest `value`, with
    /// `bounds` at its ends.
    public init(values: [Int], value: Double, parameters: FeelParameters, bounds: DialBounds = .rubber) {
        self.values = values.isEmpty ? [0] : values
        knobs = KnobGroup(parameters: parameters, bounds: bounds.bounds(detents: self.values.count))
        detent = Self.detent(nearest: value, in: self.values)
    }

    /// The acceleration of knobs without their own, while a hand turns (``AccelerationCurve``).
    package var acceleration: AccelerationCurve {
        get { knobs.acceleration }
        set { knobs.acceleration = newValue }
    }

    /// The detent whose value is nearest `value` in `values` (ties go to the lower).
    public static func detent(nearest value: Double, in values: [Int]) -> Int {
        var best = 0
        for (index, candidate) in values.enumerated() where abs(Double(candidate) - value) < abs(Double(values[best]) - value) {
            best = index
        }
        return best
    }

    /// The value at a detent (clamped to the table, or round it when the dial wraps).
    public func value(atDetent detent: Int) -> Int { values[index(detent)] }

    /// The table index of a knob detent: wrapped round a wrapping dial, else clamped.
    func index(_ detent: Int) -> Int { min(max(knobs.bounds.wrapped(detent), 0), values.count - 1) }

    /// The value now.
    public var value: Int { value(atDetent: detent) + fine }

    /// Moves to the detent nearest `value` (a client `set`), stopping any motion.
    public mutating func set(value: Double, exact: Bool = false) {
        if exact {
            place(Int(value.rounded()))
        } else {
            detent = Self.detent(nearest: value, in: values)
            fine = 0
        }
        knobs.set(detent: detent)
    }

    /// Puts the dial at `units` (clamped to the table): its detent the last table value at or
    /// below, and the rest as `fine`.
    mutating func place(_ units: Int) {
        let clamped = min(max(units, values[0]), values[values.count - 1])
        var low = 0, high = values.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if values[middle] <= clamped { low = middle } else { high = middle - 1 }
        }
        detent = low
        fine = clamped - values[low]
    }

    /// The knob of `device` moved by `detents` at `time` (`inertia` false: it never flings;
    /// `acceleration`: the device's own curve, nil for the dial's).
    /// Each step is appended to `out` as `make` makes it.
    package mutating func move<Output>(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, device: DeviceIdentity = .unnamed, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil, fineUnits: Int? = nil, into out: inout [Output], _ make: (Step) -> Output
    ) {
        var (events, start) = groupEvents.take()
        // A fine detent is `fineUnits` of the values, with no fling and no acceleration.
        knobs.move(
            device: device, by: detents, at: time, touching: touching, base: detent, inertia: fineUnits == nil && inertia,
            acceleration: fineUnits == nil ? acceleration : .off, into: &events)
        self.fineUnits = fineUnits
        appendSteps(events, from: start, into: &out, make)
        self.fineUnits = nil
        groupEvents.giveBack(&events)
    }

    /// A touch lifted from the knob of `device`.
    /// Each step is appended to `out` as `make` makes it.
    package mutating func lift<Output>(at time: Nanoseconds, device: DeviceIdentity = .unnamed, into out: inout [Output], _ make: (Step) -> Output) {
        var (events, start) = groupEvents.take()
        knobs.lift(device: device, at: time, into: &events)
        appendSteps(events, from: start, into: &out, make)
        groupEvents.giveBack(&events)
    }

    /// Brings the knobs to `time`.
    /// Each step is appended to `out` as `make` makes it.
    public mutating func advance<Output>(to time: Nanoseconds, into out: inout [Output], _ make: (Step) -> Output) {
        guard let due = knobs.nextDeadline, due <= time else { return }  // nothing due (``KnobGroup/advance(to:into:)``)
        var (events, start) = groupEvents.take()
        knobs.advance(to: time, into: &events)
        appendSteps(events, from: start, into: &out, make)
        groupEvents.giveBack(&events)
    }

    /// The knobs' events of one turn (taken out while the knobs append to it).
    var groupEvents = TurnBuffer<KnobGroup.Event>()

    /// When to call ``advance(to:into:)`` next; nil at rest.
    public var nextDeadline: Nanoseconds? { knobs.nextDeadline }

    /// While moving at `time`: the continuous value (the table interpolated between neighbouring
    /// detents), the knobs' offset in detents and their velocity.
    public func frame(at time: Nanoseconds) -> (value: Double, offset: Double, velocity: Double)? {
        guard let frame = knobs.frame(at: time, base: detent) else { return nil }
        let low = Int(frame.position.rounded(.down))
        var fraction = frame.position - Double(low)
        // Across a wrapping dial's seam (last value to first) the value steps half way, never sweeping the table.
        if index(low + 1) < index(low) { fraction = fraction < 0.5 ? 0 : 1 }
        let value = Double(value(atDetent: low)) * (1 - fraction) + Double(value(atDetent: low + 1)) * fraction
        return (value + Double(fine), frame.position, frame.velocity)
    }

    /// The knobs' events from `start` on as steps, appended to `out` as `make` makes them; a
    /// `began` carries the value after the events it came with.
    mutating func appendSteps<Output>(_ events: [KnobGroup.Event], from start: Int, into out: inout [Output], _ make: (Step) -> Output) {
        // Each `began`'s place in `out` and its time. One a turn is the rule (a gesture begins
        // once), kept in two plain numbers; an array, two Ints a step, only for more (an array
        // kept for every turn costs its release even empty).
        var firstBegan: (position: Int, timeNanoseconds: Nanoseconds)?
        var moreBegan: [Int] = []
        for position in start..<events.count {
            switch events[position] {
            case .began(let t):
                if firstBegan == nil {
                    firstBegan = (out.count, t)
                } else {
                    moreBegan.append(out.count)
                    moreBegan.append(Int(t))
                }
                out.append(make(Step(value: value, detent: detent, phase: .began, timeNanoseconds: t)))
            case .moved(var delta, let t):
                let before = value
                if let fineUnits {
                    place(value + delta * fineUnits)
                } else {
                    // Off the table (after fine control), the first detent down goes to the value below.
                    if fine != 0 {
                        if delta < 0 { delta += 1 }
                        fine = 0
                    }
                    detent = index(detent + delta)
                }
                guard value != before else { continue }
                out.append(make(Step(value: value, detent: detent, phase: .moved, timeNanoseconds: t)))
            case .released:
                continue
            case .rest(let t):
                out.append(make(Step(value: value, detent: detent, phase: .settled, timeNanoseconds: t)))
            }
        }
        guard let firstBegan else { return }
        out[firstBegan.position] = make(Step(value: value, detent: detent, phase: .began, timeNanoseconds: firstBegan.timeNanoseconds))
        for pair in stride(from: 0, to: moreBegan.count, by: 2) {
            out[moreBegan[pair]] = make(Step(value: value, detent: detent, phase: .began, timeNanoseconds: Nanoseconds(moreBegan[pair + 1])))
        }
    }
}

/// A control made of a ``DialKnob`` (tempo, volume): the knob's motion, deadlines and frames, with
/// the control's own event for each step.
package protocol DialControl: Sendable {
    /// The knob over the control's table.
    var knob: DialKnob { get set }
    /// The control it is, for frames.
    static var control: Control { get }
    /// The event a step of the knob makes.
    static func event(_ step: DialKnob.Step) -> ControlEvent
    /// What a fine detent moves, in the dial's units (the tempo: a tenth of a BPM; the volume: 1 %).
    static var fineUnits: Int { get }
    /// The dial's units in one of the value the wire carries (the tempo: 10 tenths a BPM).
    static var unitsPerValue: Double { get }
}

extension DialControl {
    /// The knob of `device` moved by `detents` at `time` (`inertia` false: it never flings;
    /// `acceleration`: the device's own curve, nil for the control's; `fine`: a detent is
    /// ``fineUnits`` of the value, without fling or acceleration).
    /// Its events are appended to `events`.
    package mutating func move(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, device: DeviceIdentity = .unnamed, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil, fine: Bool = false, into events: inout [ControlEvent]
    ) {
        knob.move(
            by: detents, at: time, touching: touching, device: device, inertia: inertia, acceleration: acceleration,
            fineUnits: fine ? Self.fineUnits : nil, into: &events, Self.event)
    }

    /// A touch lifted from the knob of `device`.
    /// Its events are appended to `events`.
    package mutating func lift(at time: Nanoseconds, device: DeviceIdentity = .unnamed, into events: inout [ControlEvent]) {
        knob.lift(at: time, device: device, into: &events, Self.event)
    }

    /// Brings the control to `time`.
    /// Its events are appended to `events`.
    public mutating func advance(to time: Nanoseconds, into events: inout [ControlEvent]) { knob.advance(to: time, into: &events, Self.event) }

    /// When to call ``advance(to:into:)`` next; nil at rest.
    public var nextDeadline: Nanoseconds? { knob.nextDeadline }

    /// A frame at `time` while moving: the value interpolated between neighbouring detents.
    public func frame(at time: Nanoseconds) -> ControlEvent? {
        knob.frame(at: time).map {
            .frame(control: Self.control, value: $0.value / Self.unitsPerValue, offset: $0.offset, velocity: $0.velocity, timeNanoseconds: time)
        }
    }
}
