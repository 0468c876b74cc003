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
        knob = DialKnob(values: dial.values, value: bpm, parameters: parameters, bounds: dial.bounds)
        knob.acceleration = acceleration
    }

    /// The detent the dial reports now.
    public var detent: Int { knob.detent }

    /// The BPM now.
    public var bpm: Int { knob.value }

    /// Sets the tempo (a client `set`), stopping any motion.
    public mutating func set(bpm: Double) { knob.set(value: bpm) }

    /// The control it is.
    public static let control = Control.tempo

    /// The event a step makes.
    public static func event(_ step: DialKnob.Step) -> ControlEvent {
        .tempo(bpm: step.value, value: step.detent, phase: step.phase, timeNanoseconds: step.timeNanoseconds)
    }
}
