/// The tempo dial on a knob with feel: detents of the engine are detents of the BPM table.
public struct TempoControl: Sendable {
    /// The dial (range and table).
    public let dial: TempoDial
    /// The knob.
    public private(set) var engine: KnobEngine

    /// Creates the control at `bpm` (the nearest table value).
    public init(dial: TempoDial = TempoDial(), bpm: Double = 120, parameters: FeelParameters = FeelParameters()) {
        self.dial = dial
        self.engine = KnobEngine(parameters: parameters, bounds: .clamp(0...(dial.detentCount - 1)), detent: dial.detent(nearest: bpm))
    }

    /// The BPM now.
    public var bpm: Int { dial.bpm(atDetent: engine.reportedDetent) }

    /// Sets the tempo (a client `set`), stopping any motion.
    public mutating func set(bpm: Double) { engine.set(detent: dial.detent(nearest: bpm)) }

    /// The knob moved by `detents` at `time`.
    public mutating func move(by detents: Double, at time: Nanoseconds, touching: Bool = false) -> [ControlEvent] {
        translate(engine.move(by: detents, at: time, touching: touching))
    }

    /// A touch lifted.
    public mutating func lift(at time: Nanoseconds) -> [ControlEvent] { translate(engine.lift(at: time)) }

    /// Brings the control to `time`.
    public mutating func advance(to time: Nanoseconds) -> [ControlEvent] { translate(engine.advance(to: time)) }

    /// When to call ``advance(to:)`` next; nil at rest.
    public var nextDeadline: Nanoseconds? { engine.nextDeadline }

    /// A frame at `time` while moving.
    public func frame(at time: Nanoseconds) -> ControlEvent? {
        guard let frame = engine.frame(at: time) else { return nil }
        // The continuous value interpolates the table between neighbouring detents.
        let low = Int(frame.position.rounded(.down))
        let fraction = frame.position - Double(low)
        let value = Double(dial.bpm(atDetent: low)) * (1 - fraction) + Double(dial.bpm(atDetent: low + 1)) * fraction
        return .frame(control: .tempo, value: value, offset: frame.position, velocity: frame.velocity, timeNanoseconds: time)
    }

    func translate(_ events: [KnobEngine.Event]) -> [ControlEvent] {
        events.compactMap { event in
            switch event {
            case .began(let t): return .tempo(bpm: bpm, value: engine.reportedDetent, phase: .began, timeNanoseconds: t)
            case .detent(let d, let t): return .tempo(bpm: dial.bpm(atDetent: d), value: d, phase: .moved, timeNanoseconds: t)
            case .released: return nil
            case .rest(let d, let t): return .tempo(bpm: dial.bpm(atDetent: d), value: d, phase: .settled, timeNanoseconds: t)
            }
        }
    }
}
