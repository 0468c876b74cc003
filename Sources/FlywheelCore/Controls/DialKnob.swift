/// A knob with feel over a table of whole-number values, one per detent, increasing: the engine
/// machinery the tempo dial and the volume dial share. The engine is clamped to the table; its
/// events become ``Step``s carrying the table's value.
public struct DialKnob: Sendable {
    /// The value of each detent, increasing (at least one).
    public let values: [Int]
    /// The knob.
    public private(set) var engine: KnobEngine

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
        engine = KnobEngine(parameters: parameters, bounds: bounds.bounds(detents: self.values.count), detent: Self.detent(nearest: value, in: self.values))
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
    func index(_ detent: Int) -> Int { min(max(engine.bounds.wrapped(detent), 0), values.count - 1) }

    /// The detent the knob reports now, as a table index.
    public var detent: Int { index(engine.reportedDetent) }

    /// The value now.
    public var value: Int { value(atDetent: detent) }

    /// Moves to the detent nearest `value` (a client `set`), stopping any motion.
    public mutating func set(value: Double) { engine.set(detent: Self.detent(nearest: value, in: values)) }

    /// The knob moved by `detents` at `time`.
    public mutating func move(by detents: Double, at time: Nanoseconds, touching: Bool = false) -> [Step] {
        steps(engine.move(by: detents, at: time, touching: touching))
    }

    /// A touch lifted.
    public mutating func lift(at time: Nanoseconds) -> [Step] { steps(engine.lift(at: time)) }

    /// Brings the knob to `time`.
    public mutating func advance(to time: Nanoseconds) -> [Step] { steps(engine.advance(to: time)) }

    /// When to call ``advance(to:)`` next; nil at rest.
    public var nextDeadline: Nanoseconds? { engine.nextDeadline }

    /// While moving at `time`: the continuous value (the table interpolated between neighbouring
    /// detents), the knob's offset in detents and its velocity.
    public func frame(at time: Nanoseconds) -> (value: Double, offset: Double, velocity: Double)? {
        guard let frame = engine.frame(at: time) else { return nil }
        let low = Int(frame.position.rounded(.down))
        var fraction = frame.position - Double(low)
        // Across a wrapping dial's seam (last value to first) the value steps half way, never sweeping the table.
        if index(low + 1) < index(low) { fraction = fraction < 0.5 ? 0 : 1 }
        let value = Double(value(atDetent: low)) * (1 - fraction) + Double(value(atDetent: low + 1)) * fraction
        return (value, frame.position, frame.velocity)
    }

    func steps(_ events: [KnobEngine.Event]) -> [Step] {
        events.compactMap { event in
            switch event {
            case .began(let t): return Step(value: value, detent: detent, phase: .began, timeNanoseconds: t)
            case .detent(let d, let t): return Step(value: value(atDetent: d), detent: index(d), phase: .moved, timeNanoseconds: t)
            case .released: return nil
            case .rest(let d, let t): return Step(value: value(atDetent: d), detent: index(d), phase: .settled, timeNanoseconds: t)
            }
        }
    }
}

/// A control made of a ``DialKnob`` (tempo, volume): the knob's motion, deadlines and frames, with
/// the control's own event for each step.
public protocol DialControl: Sendable {
    /// The knob over the control's table.
    var knob: DialKnob { get set }
    /// The control it is, for frames.
    static var control: Control { get }
    /// The event a step of the knob makes.
    static func event(_ step: DialKnob.Step) -> ControlEvent
}

extension DialControl {
    /// The knob moved by `detents` at `time`.
    public mutating func move(by detents: Double, at time: Nanoseconds, touching: Bool = false) -> [ControlEvent] {
        knob.move(by: detents, at: time, touching: touching).map(Self.event)
    }

    /// A touch lifted.
    public mutating func lift(at time: Nanoseconds) -> [ControlEvent] { knob.lift(at: time).map(Self.event) }

    /// Brings the control to `time`.
    public mutating func advance(to time: Nanoseconds) -> [ControlEvent] { knob.advance(to: time).map(Self.event) }

    /// When to call ``advance(to:)`` next; nil at rest.
    public var nextDeadline: Nanoseconds? { knob.nextDeadline }

    /// A frame at `time` while moving: the value interpolated between neighbouring detents.
    public func frame(at time: Nanoseconds) -> ControlEvent? {
        knob.frame(at: time).map { .frame(control: Self.control, value: $0.value, offset: $0.offset, velocity: $0.velocity, timeNanoseconds: time) }
    }
}
