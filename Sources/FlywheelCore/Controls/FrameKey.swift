/// What a frame is of, and so what frames coalesce by for a slow client (the latest wins): a
/// control, or the N-way mode switch. Its raw value is the frame's `control` on the wire.
package enum FrameKey: String, Sendable, Hashable {
    case tempo, scrub, volume
    /// The navigator (which makes no frames: it has no motion).
    case navigate
    /// The mode switch (its snap between segments).
    case mode

    /// A control's frames.
    @inline(__always)
    package init(_ control: Control) {
        switch control {
        case .tempo: self = .tempo
        case .scrub: self = .scrub
        case .volume: self = .volume
        case .navigate: self = .navigate
        }
    }
}
