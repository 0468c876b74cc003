/// The tempo dial on a knob with feel: detents of the engine are detents of the BPM table.
public struct TempoControl: DialControl {
    /// The dial (range and table).
    public let dial: TempoDial
    /// The knob over the dial's table.
    public var knob: DialKnob

    /// Creates the control at `bpm` (the nearest table value), accelerating as `acceleration` says.
    public init(
        dial: TempoDial = TempoDial(), bpm: Double = 120, parameters: FeelParameters = FeelParameters(),
        acceleration: AccelerationCurve = .standard(for: .tempo)
    ) {
        self.dial = dial
        knob = DialKnob(values: dial.values, value: bpm * 10, parameters: parameters, bounds: dial.bounds)
        knob.set(value: bpm * 10, exact: true)
        knob.acceleration = acceleration
    }

    /// The detent the dial reports now.
    public var detent: Int { knob.detent }

    /// The tempo now.
    public var bpm: BPM { BPM(tenths: knob.value) }

    /// A fine detent: a tenth of a BPM, whatever the table.
    package static let fineUnits = 1
    /// The dial's units in one of the wire's (tenths of a BPM; percent).
    package static let unitsPerValue: Double = 10

    /// Sets the tempo (a client `set`) to the tenth, stopping any motion; `onTable`: to the table's
    /// nearest value instead (a tapped tempo).
    public mutating func set(bpm: Double, onTable: Bool = false) { knob.set(value: bpm * 10, exact: !onTable) }

    /// The control it is.
    public static let control = Control.tempo

    /// The event a step makes.
    public static func event(_ step: DialKnob.Step) -> ControlEvent {
        .tempo(bpm: BPM(tenths: step.value), value: step.detent, phase: step.phase, timeNanoseconds: step.timeNanoseconds)
    }
}
