/// How many quarter steps one detent spans: the kernel `rotary-encoder` driver's `steps-per-period`.
public enum StepsPerDetent: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every state is a rest state (one quarter step per detent).
    case one = 1
    /// Rests on 00 and on 11 (half a Gray period per detent).
    case two = 2
    /// Rests on one state only (a full Gray period per detent; EC11/KY-040).
    case four = 4

    public var description: String { String(rawValue) }

    /// The rest states for this detent size, aligned to `rest`: a bit per level code.
    ///
    /// With four steps only `rest` itself; with two, `rest` and the state opposite it in the
    /// Gray cycle (00 with 11, 10 with 01); with one, every state.
    package func restMask(alignedTo rest: QuadratureLevels) -> UInt8 {
        switch self {
        case .one: return 0b1111
        case .two:
            let opposite = QuadratureLevels.atPhase(rest.phase + 2)
            return (1 << rest.code) | (1 << opposite.code)
        case .four: return 1 << rest.code
        }
    }
}
