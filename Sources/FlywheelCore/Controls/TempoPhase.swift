/// Why a `tempo` (or `volume`) message was sent.
public enum TempoPhase: String, Sendable, Hashable, CaseIterable {
    /// A gesture on the tempo began.
    case began
    /// The tempo moved by a detent.
    case moved
    /// The knob came to rest.
    case settled
    /// A client set it.
    case set
    /// The tap tempo set it (tempo only).
    case tap
}
