/// Castro's hint for a tap near an edge of a touch strip: the control's visual offset is pushed
/// towards that edge, falls back and settles, all with the shared detent spring.
///
/// It is a spring from offset 0 to 0 started with a push velocity, so the offset rises to a peak,
/// overshoots back past 0 (with ζ < 1) and settles: push, fall back, settle, as offset frames.
public struct EdgeHint: Sendable, Hashable {
    /// When the tap happened.
    package let startNanoseconds: Nanoseconds
    /// The motion of the offset, in detents.
    public let spring: SpringMotion

    /// A hint towards `direction` (+1 the far edge, −1 the near edge), peaking at about
    /// `peak` detents with the default spring.
    public init(at time: Nanoseconds, direction: Int, peak: Double = 0.35, parameters: SpringParameters = .standard) {
        startNanoseconds = time
        // For a spring from rest position with velocity v0, the first peak is v0/ω·e^(−ζ·φ/√(1−ζ²))…;
        // scaling v0 by ω keeps the peak near `peak` across responses.
        let push = Double(direction.signum()) * peak * parameters.angularFrequency * 1.6
        spring = SpringMotion(from: 0, velocity: push, to: 0, parameters: parameters)
    }

    /// The farthest the offset goes towards the edge, in detents.
    package var peakOffset: Double {
        spring.turningPoints(before: spring.settleSeconds).first.map { spring.position(after: $0) } ?? 0
    }

    /// The offset in detents and its velocity at `time`, or nil outside the hint.
    package func motion(at time: Nanoseconds) -> (offset: Double, velocity: Double)? {
        guard time >= startNanoseconds, time < endNanoseconds else { return nil }
        let seconds = Double(time - startNanoseconds) / 1e9
        return (spring.position(after: seconds), spring.velocity(after: seconds))
    }

    /// When the hint is over.
    public var endNanoseconds: Nanoseconds { startNanoseconds + Motion.nanoseconds(spring.settleSeconds) }

    /// The offset at `time` (0 before the tap and after the settle).
    public func offset(at time: Nanoseconds) -> Double {
        guard time > startNanoseconds, time < endNanoseconds else { return 0 }
        return spring.position(after: Double(time - startNanoseconds) / 1e9)
    }

    /// Offset frames at `framesPerSecond` from the tap until the settle.
    public func frames(framesPerSecond: Double) -> [(timeNanoseconds: Nanoseconds, offset: Double)] {
        guard framesPerSecond > 0 else { return [] }
        var frames: [(Nanoseconds, Double)] = []
        var k = 0.0
        while true {
            let time = startNanoseconds + Nanoseconds((k * 1e9 / framesPerSecond).rounded())
            if time >= endNanoseconds { frames.append((endNanoseconds, 0)); break }
            frames.append((time, offset(at: time)))
            k += 1
        }
        return frames
    }
}
