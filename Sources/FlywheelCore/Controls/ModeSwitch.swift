/// An N-way switch like DGRunkeeperSwitch: a tap advances; a pan moves a continuous offset and
/// a partial pan snaps to the nearest segment. The active mode routes one knob to one control.
public struct ModeSwitch: Sendable, Hashable {
    /// The segments, e.g. `[.tempo, .scrub]`.
    public let segments: [Control]
    /// The active segment.
    public private(set) var index: Int = 0
    /// The continuous position while panning, in segments (0 … count−1).
    public private(set) var offset: Double = 0

    /// Creates a switch (at least one segment).
    public init(segments: [Control]) {
        precondition(!segments.isEmpty, "a mode switch needs at least one segment")
        self.segments = segments
    }

    /// The active segment.
    package var active: Control { segments[index] }

    /// A tap: advances to the next segment, wrapping.
    package mutating func tap() -> Control {
        index = (index + 1) % segments.count
        offset = Double(index)
        return active
    }

    /// Selects a segment; false when the switch has no such segment.
    package mutating func select(_ control: Control) -> Bool {
        guard let found = segments.firstIndex(of: control) else { return false }
        index = found
        offset = Double(found)
        return true
    }

    /// A pan moved the offset to `position` (clamped to the segments).
    package mutating func pan(to position: Double) {
        offset = min(max(position, 0), Double(segments.count - 1))
    }

    /// The offset for a finger at `position` (0…1) along a strip laid out as the segments, one
    /// equal part each: the selection centred under the finger, as DGRunkeeperSwitch's pan puts
    /// it (``pan(to:)`` clamps it to the segments). A tap there selects the segment under it.
    public func offset(under position: Double) -> Double { position * Double(segments.count) - 0.5 }

    /// The pan ended: snap to the nearest segment. Returns the new active segment's name if it
    /// changed.
    package mutating func endPan() -> Control? {
        let nearest = Int(offset.rounded())
        let changed = nearest != index
        index = nearest
        return changed ? active : nil
    }

    /// The spring that carries the visual offset from where the pan left it onto the active
    /// segment, with the pan's release velocity (segments per second).
    package func snap(velocity: Double, parameters: SpringParameters = .standard) -> SpringMotion {
        SpringMotion(from: offset, velocity: velocity, to: Double(index), parameters: parameters)
    }
}
