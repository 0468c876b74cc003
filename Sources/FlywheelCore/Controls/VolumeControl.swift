/// The volume dial: 0 up to a cap (at most 100), a step per detent.
public struct VolumeDial: Sendable, Hashable {
    /// The loudest the knob goes (0…100).
    public let cap: Int
    /// Volume per detent (1…100).
    public let step: Int
    /// The volume of each detent: 0, step, 2·step, …, and the cap last.
    public let values: [Int]
    /// What the dial does at its ends (default: the rubber band).
    public let bounds: DialBounds

    /// Creates a dial (cap clamped to 1…100, step to 1…cap).
    public init(cap: Int = 100, step: Int = 2, bounds: DialBounds = .rubber) {
        self.bounds = bounds
        self.cap = min(max(cap, 1), 100)
        self.step = min(max(step, 1), self.cap)
        var values = Array(stride(from: 0, to: self.cap, by: self.step))
        values.append(self.cap)
        self.values = values
    }
}

/// The volume on a knob with feel, as the tempo: the same dial machinery over the volume table.
public struct VolumeControl: DialControl {
    /// The dial (cap and step).
    public let dial: VolumeDial
    /// The knob over the dial's table.
    public var knob: DialKnob

    /// Creates the control at `volume` (the nearest step), accelerating as `acceleration` says.
    public init(
        dial: VolumeDial = VolumeDial(), volume: Double = 30, parameters: FeelParameters = FeelParameters(),
        acceleration: AccelerationCurve = .standard(for: .volume)
    ) {
        self.dial = dial
        knob = DialKnob(values: dial.values, value: volume, parameters: parameters, bounds: dial.bounds)
        knob.acceleration = acceleration
    }

    /// The volume now (0…cap).
    public var volume: Int { knob.value }

    /// A fine detent: 1 % (the smallest volume a mixer takes), whatever the step.
    package static let fineUnits = 1
    /// The dial's units in one of the wire's (tenths of a BPM; percent).
    package static let unitsPerValue: Double = 1

    /// Sets the volume (a client `set`: the nearest step), stopping any motion; `exact`: to the
    /// percent (a restored volume, which fine control may have left between steps).
    public mutating func set(volume: Double, exact: Bool = false) { knob.set(value: volume, exact: exact) }

    /// The control it is.
    public static let control = Control.volume

    /// The event a step makes.
    public static func event(_ step: DialKnob.Step) -> ControlEvent {
        .volume(volume: step.value, phase: step.phase, timeNanoseconds: step.timeNanoseconds)
    }
}
