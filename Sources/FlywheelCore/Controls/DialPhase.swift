/// Why a `tempo` (or `volume`) message was sent.
public enum DialPhase: String, Sendable, Hashable, CaseIterable {
    /// A gesture on the control began.
    case began
    /// The control moved by a detent.
    case moved
    /// The knob came to rest.
    case settled
    /// A client set it.
    case set
    /// The tap tempo set it (tempo only).
    case tap
}
