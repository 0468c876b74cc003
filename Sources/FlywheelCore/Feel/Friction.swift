/// Exponential friction: a coasting knob's velocity decays as v(t) = v0·e^(−k·t).
public struct Friction: Sendable, Hashable {
    /// The decay rate k, per second (> 0).
    public var perSecond: Double

    /// Creates friction with decay rate `perSecond`.
    public init(perSecond: Double) { self.perSecond = perSecond }

    /// Flywheel's default, k = 4 /s: a flick at 10 detents/s coasts 2.5 detents.
    package static let standard = Friction(perSecond: 4)
    /// UIScrollView's normal deceleration rate (0.998 per millisecond): k = −1000·ln 0.998 ≈ 2.002 /s.
    package static let iosNormal = Friction(perSecond: -1000 * Elementary.log(0.998))
    /// UIScrollView's fast deceleration rate (0.99 per millisecond): k = −1000·ln 0.99 ≈ 10.05 /s.
    package static let iosFast = Friction(perSecond: -1000 * Elementary.log(0.99))

    /// A preset by name: `standard`, `ios-normal`, `ios-fast`.
    public static func preset(_ name: String) -> Friction? {
        switch name {
        case "standard": return .standard
        case "ios-normal": return .iosNormal
        case "ios-fast": return .iosFast
        default: return nil
        }
    }
}

/// A coasting motion in closed form: x(t) = x0 + (v0/k)(1 − e^(−k·t)), v(t) = v0·e^(−k·t).
public struct Coast: Sendable, Hashable {
    /// Position at t = 0, in detents.
    public var position: Double
    /// Velocity at t = 0, in detents per second.
    public var velocity: Double
    /// Decay rate k, per second.
    public var friction: Double

    /// Creates a coast.
    public init(position: Double, velocity: Double, friction: Double) {
        self.position = position
        self.velocity = velocity
        self.friction = friction
    }

    /// Where it comes to rest: x0 + v0/k.
    package var restingPoint: Double { position + velocity / friction }

    /// Position `seconds` after the start.
    public func position(after seconds: Double) -> Double {
        position + velocity / friction * (1 - Elementary.exp(-friction * seconds))
    }

    /// Velocity `seconds` after the start.
    public func velocity(after seconds: Double) -> Double {
        velocity * Elementary.exp(-friction * seconds)
    }

    /// When the coast reaches `target`, or nil when it never does (behind it, or at or past the
    /// resting point).
    public func seconds(toReach target: Double) -> Double? {
        let travel = target - position
        if travel == 0 { return 0 }
        guard velocity != 0, (travel > 0) == (velocity > 0) else { return nil }
        let fraction = travel * friction / velocity  // share of the way to the resting point
        guard fraction < 1 else { return nil }
        return -Elementary.log(1 - fraction) / friction
    }
}
