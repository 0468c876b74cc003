/// Everything that shapes the feel, with Flywheel's defaults.
public struct FeelParameters: Sendable, Hashable {
    /// Coasting friction (default k = 4 /s).
    public var friction: Friction = .standard
    /// The detent spring (default response 0.3 s, ζ = 0.35).
    public var spring: SpringParameters = .standard
    /// Below this speed a release does not coast (default nil: 0.5·k detents/s, a flick that
    /// would not travel half a detent).
    package var minimumFlingSpeed: Double?
    /// Release speeds are capped here (default 60 detents/s).
    public var maximumSpeed: Double = 60
    /// Silence that counts as a release for encoders and wheels (default 100 ms for detented
    /// devices; use ``highResolutionReleaseNanoseconds`` for high-resolution ones).
    package var releaseSilenceNanoseconds: Nanoseconds = 100_000_000
    /// A gap longer than this starts a new gesture (default 200 ms).
    package var newGestureGapNanoseconds: Nanoseconds = 200_000_000
    /// The velocity fit's window before the release (default 100 ms).
    package var velocityWindowNanoseconds: Nanoseconds = 100_000_000
    /// A newest sample older than this at the release means the hand had stopped: velocity 0 (default 40 ms).
    package var velocityStalenessNanoseconds: Nanoseconds = 40_000_000
    /// A move against the previous one within this time is contact bounce, not motion (default
    /// 5 ms: a worn contact bounces for up to about 3 ms, and no hand reverses a knob between two
    /// detents that fast). It never feeds the velocity fit, and the reported detent does not step
    /// back for it: it follows the hand once the contacts have been quiet this long.
    package var bounceWindowNanoseconds: Nanoseconds = 5_000_000

    /// The release silence for high-resolution devices (30 ms).
    package static let highResolutionReleaseNanoseconds: Nanoseconds = 30_000_000

    /// These parameters for the release after a turn whose detents `factor` accelerated: the
    /// speed cap grows with the factor, so the coast starts from the accelerated speed.
    package func accelerated(by factor: Double) -> FeelParameters {
        guard factor != 1 else { return self }
        var feel = self
        feel.maximumSpeed *= factor
        return feel
    }

    /// The defaults.
    public init() {}

    /// The minimum fling speed in effect.
    package var effectiveMinimumFlingSpeed: Double { minimumFlingSpeed ?? 0.5 * friction.perSecond }
}
