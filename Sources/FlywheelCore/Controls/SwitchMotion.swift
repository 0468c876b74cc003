/// The N-way mode switch's motion, for frames: a finger panning it along a strip, then the spring
/// that snaps it onto the nearest segment when the finger lifts (DGRunkeeperSwitch's springy snap,
/// with the feel's spring). Nothing here at rest: a settled snap and a finger that has not moved
/// for the velocity's staleness (40 ms) give no frames.
public struct SwitchMotion: Sendable, Hashable {
    /// While a finger pans: the switch's offset (segments), its velocity and when it last moved.
    var panOffset: Double?
    var panVelocity = 0.0
    var panNanoseconds: Nanoseconds = 0
    /// After the lift: the snap, when it started and when it has settled.
    var snap: SpringMotion?
    var snapStart: Nanoseconds = 0
    var snapSettle: Nanoseconds = 0

    /// A finger that has not moved for this long rests (as ``FeelParameters/velocityStalenessNanoseconds``).
    static let restingNanoseconds: Nanoseconds = 40_000_000

    /// No motion.
    public init() {}

    /// A finger moved the switch to `offset` (segments) at `time`.
    package mutating func panned(to offset: Double, at time: Nanoseconds) {
        if let previous = panOffset, time > panNanoseconds, time - panNanoseconds <= Self.restingNanoseconds {
            panVelocity = (offset - previous) / (Double(time - panNanoseconds) / 1e9)
        } else {
            panVelocity = 0
        }
        panOffset = offset
        panNanoseconds = time
        snap = nil
    }

    /// The finger lifted at `time` with the switch at `offset`: it springs onto segment `index`,
    /// carrying the pan's velocity (none if the finger had stopped).
    package mutating func lifted(from offset: Double, onto index: Int, at time: Nanoseconds, spring parameters: SpringParameters) {
        let velocity = panOffset != nil && time - panNanoseconds <= Self.restingNanoseconds ? panVelocity : 0
        panOffset = nil
        let spring = SpringMotion(from: offset, velocity: velocity, to: Double(index), parameters: parameters)
        snap = spring
        snapStart = time
        snapSettle = time + Motion.nanoseconds(spring.settleSeconds)
    }

    /// The switch's frame at `time` (`active`: the active segment's index), nil when it does not move.
    public func frame(at time: Nanoseconds, active: Int) -> ControlEvent? {
        if let snap, time >= snapStart, time < snapSettle {
            let seconds = Double(time - snapStart) / 1e9
            let position = snap.position(after: seconds)
            return .switchFrame(position: position, offset: position - Double(active), velocity: snap.velocity(after: seconds), timeNanoseconds: time)
        }
        if let panOffset, time >= panNanoseconds, time - panNanoseconds <= Self.restingNanoseconds {
            return .switchFrame(position: panOffset, offset: panOffset - Double(active), velocity: panVelocity, timeNanoseconds: time)
        }
        return nil
    }

    /// Whether the switch moves at `time`.
    package func isMoving(at time: Nanoseconds) -> Bool {
        (snap != nil && time >= snapStart && time < snapSettle) || (panOffset.map { _ in time >= panNanoseconds && time - panNanoseconds <= Self.restingNanoseconds } ?? false)
    }
}
