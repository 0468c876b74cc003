/// A device's own knob settings (a `devices[]` entry's `invert`, `detents_per_step` and
/// `acceleration`), applied to its motion before it reaches its engine.
public struct KnobOptions: Sendable, Hashable {
    /// Turns the direction round (encoders of different makers count opposite ways).
    public var invert: Bool
    /// Detents of this knob that make one step of the control (1…64; default 1). A fine knob
    /// takes 2 or more: with 4, four detents move the tempo by one table value. Whole detents
    /// are counted, the remainder kept for the next turn, so a fine knob never loses a detent.
    public var detentsPerStep: Int
    /// Whether the knob flings and coasts (default true). Off, every detent is exactly one step
    /// and the knob stops where the hand leaves it.
    public var acceleration: Bool

    /// The accepted detents per step.
    public static let acceptedDetentsPerStep = 1...64

    /// Settings (the defaults: as turned, a step per detent, with acceleration).
    public init(invert: Bool = false, detentsPerStep: Int = 1, acceleration: Bool = true) {
        self.invert = invert
        self.detentsPerStep = min(max(detentsPerStep, Self.acceptedDetentsPerStep.lowerBound), Self.acceptedDetentsPerStep.upperBound)
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
