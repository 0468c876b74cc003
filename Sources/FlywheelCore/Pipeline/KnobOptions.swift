/// A device's own knob settings (a `devices[]` entry's `invert`, `detents_per_step`, `inertia`
/// and `acceleration`), applied to its motion before it reaches its engine.
public struct KnobOptions: Sendable, Hashable {
    /// Turns the direction round (encoders of different makers count opposite ways).
    package var invert: Bool
    /// Detents of this knob that make one step of the control (1…64; default 1). A fine knob
    /// takes 2 or more: with 4, four detents move the tempo by one table value. Whole detents
    /// are counted, the remainder kept for the next turn, so a fine knob never loses a detent.
    package var detentsPerStep: Int
    /// Whether the knob flings and coasts (default true). Off, the knob stops where the hand
    /// leaves it. (Until issue 34 this was the key `acceleration: false`.)
    package var inertia: Bool
    /// The knob's own acceleration while the hand turns; nil (the default): its control's.
    package var acceleration: AccelerationCurve?

    /// The accepted detents per step.
    package static let acceptedDetentsPerStep = 1...64

    /// Settings (the defaults: as turned, a step per detent, with inertia, accelerating as the
    /// control does).
    public init(invert: Bool = false, detentsPerStep: Int = 1, inertia: Bool = true, acceleration: AccelerationCurve? = nil) {
        self.invert = invert
        self.detentsPerStep = min(max(detentsPerStep, Self.acceptedDetentsPerStep.lowerBound), Self.acceptedDetentsPerStep.upperBound)
        self.inertia = inertia
        self.acceleration = acceleration
    }

    /// A knob's `detents` as steps of the control, with `remainder` the detents counted towards
    /// the next step (updated). Touch motion is continuous and is divided as it is.
    public func steps(_ detents: Double, touching: Bool, remainder: inout Double) -> Double {
        let signed = invert ? -detents : detents
        guard detentsPerStep > 1 else { return signed }
        let per = Double(detentsPerStep)
        if touching { return signed / per }
        remainder += signed
        let whole = (remainder / per).rounded(.towardZero)
        remainder -= whole * per
        return whole
    }

    /// A shuttle ring's position as this device turns it.
    public func shuttle(_ position: Int) -> Int { invert ? -position : position }
}
