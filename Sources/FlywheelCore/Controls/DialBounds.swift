/// What a dial (the tempo, the volume) does at its ends (`controls.tempo.bounds`,
/// `controls.volume.bounds`).
public enum DialBounds: String, Sendable, Hashable, CaseIterable {
    /// The default: turned past an end the dial overscrolls like a rubber band (UIScrollView's)
    /// and springs back onto the end; the pull is given back before turning back moves it.
    case rubber
    /// A dead stop, like a potentiometer's: turning past an end does nothing, and turning back
    /// moves at once.
    case hard
    /// A circular list, as the Click metronome's selector lays its values round a circle: past
    /// the last value comes the first, both ways.
    case wrap

    /// The knob's bounds over `detents` detents (0 … detents − 1).
    public func bounds(detents: Int) -> Bounds {
        let last = max(detents, 1) - 1
        switch self {
        case .rubber: return .clamp(0...last)
        case .hard: return .stop(0...last)
        case .wrap: return .wrap(count: last + 1)
        }
    }
}
