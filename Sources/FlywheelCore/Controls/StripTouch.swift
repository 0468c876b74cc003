/// A finger on a touch strip, from its touch-down to its lift: where it is along the strip, and
/// whether the touch was a tap.
public struct StripTouch: Sendable, Hashable {
    /// Where it came down (0 at the strip's start, 1 at its end).
    package let downPosition: Double
    /// The detents the strip spans.
    public let detents: Double
    /// When it came down.
    package let downNanoseconds: Nanoseconds
    /// Where it is now (0…1).
    public private(set) var position: Double
    /// How far it has moved, both ways added up, in detents.
    public private(set) var travelDetents = 0.0

    /// A touch lifted sooner than this (the button's long-press time, 0.5 s) and having moved
    /// less than half a detent is a tap.
    package static let tapNanoseconds: Nanoseconds = 500_000_000
    package static let tapTravelDetents = 0.5

    /// A finger down at `position` on a strip of `detents` detents at `time`.
    public init(at position: Double, detents: Double, time: Nanoseconds) {
        downPosition = min(max(position, 0), 1)
        self.detents = detents
        downNanoseconds = time
        self.position = downPosition
    }

    /// The finger moved by `delta` detents along the strip.
    package mutating func move(by delta: Double) {
        travelDetents += abs(delta)
        if detents > 0 { position = min(max(position + delta / detents, 0), 1) }
    }

    /// Whether lifting at `time` makes it a tap.
    package func isTap(liftedAt time: Nanoseconds) -> Bool {
        time - downNanoseconds < Self.tapNanoseconds && travelDetents < Self.tapTravelDetents
    }

    /// Castro's hint for a tap: on the first half of the strip the bar is pushed towards the end
    /// (+1), on the second half towards the start (−1), away from the finger.
    package var hintDirection: Int { downPosition < 0.5 ? 1 : -1 }
}
