/// The cheap first half of planning a ``Motion``: the target, the coast and the spring, without
/// the spring's settle time or the reported steps the spring decides (those need a search).
///
/// A knob plans its hand-over motion at every detent of a turn and uses only its first few
/// steps before the next detent replans it; ``coastStep(_:after:)`` gives those exactly (they
/// are the ones the coast decides), and ``Motion/init(_:)`` completes the plan when the motion
/// is actually released.
struct MotionPlan: Sendable, Hashable {
    let startNanoseconds: Nanoseconds
    let startDetent: Int
    /// The position that shows at the start (after the rubber band, if any).
    let position: Double
    let target: Int
    let coast: Coast?
    let coastSeconds: Double
    /// The spring's velocity at its start when there is no coast (with one, the coast's at its end).
    let settleVelocity: Double
    let springParameters: SpringParameters
    let bounds: Bounds

    /// The spring, from where the coast ends (or the start). Worked out when asked: a hand-over
    /// is replanned at every detent and asks for it only when it is released.
    var spring: SpringMotion {
        var start = (position: position, velocity: settleVelocity)
        if let coast { start = (coast.position(after: coastSeconds), coast.velocity(after: coastSeconds)) }
        return SpringMotion(from: start.position, velocity: start.velocity, to: Double(target), parameters: springParameters)
    }

    /// The first half of ``Motion/init(releasedAt:position:velocity:reportedDetent:bounds:parameters:)``.
    init(
        releasedAt start: Nanoseconds, position handPosition: Double, velocity rawVelocity: Double, reportedDetent: Int,
        bounds: Bounds, parameters: FeelParameters
    ) {
        let k = parameters.friction.perSecond
        let position = bounds.displayed(handPosition)
        let shownVelocity = bounds.displayedVelocity(rawVelocity, at: handPosition)
        let velocity = min(max(shownVelocity, -parameters.maximumSpeed), parameters.maximumSpeed)
        var target: Int
        let fling = abs(velocity) >= parameters.effectiveMinimumFlingSpeed && velocity != 0
        if fling {
            target = Int((position + velocity / k).rounded())
            let direction = velocity > 0 ? 1 : -1
            let nearest = Int(position.rounded())
            if (target - nearest) * direction < 1 { target = nearest + direction }
        } else {
            target = Int(position.rounded())
        }
        target = bounds.clamp(target)
        // Without a fling the spring only seats the knob on its detent: it carries no more speed
        // than would travel half a detent under friction, so a fast turn stopped dead does not
        // swing on past its detent.
        let settleVelocity = fling ? velocity : min(max(velocity, -0.5 * k), 0.5 * k)
        let distance = Double(target) - position
        var coast: Coast?
        var coastSeconds = 0.0
        if fling, abs(distance) > 1, (distance > 0) == (velocity > 0) {
            let retuned = Coast(position: position, velocity: velocity, friction: velocity / distance)
            let handover = Double(target) - (distance > 0 ? 0.25 : -0.25)
            let seconds = retuned.seconds(toReach: handover) ?? 0
            coast = retuned
            coastSeconds = seconds
        }
        self.startNanoseconds = start
        self.startDetent = reportedDetent
        self.position = position
        self.target = target
        self.coast = coast
        self.coastSeconds = coastSeconds
        self.settleVelocity = settleVelocity
        self.springParameters = parameters.spring
        self.bounds = bounds
    }

    /// How many detent steps the report takes from the start detent to the target.
    var stepCount: Int { abs(target - startDetent) }

    /// The direction of the reported steps.
    var stepDirection: Double { target > startDetent ? 1 : -1 }

    /// The boundary (half a detent) of the cell the `k`-th reported step enters.
    func boundary(_ k: Int) -> Double { Double(startDetent) + stepDirection * (Double(k) - 0.5) }

    /// Seconds after the start at which the position reaches the `k`-th step's boundary when the
    /// start or the coast decides it, or nil when the spring does.
    func coastStepSeconds(_ k: Int) -> Double? {
        let boundary = boundary(k)
        if stepDirection * (position - boundary) >= 0 { return 0 }
        if let coast, let t = coast.seconds(toReach: boundary), t <= coastSeconds { return t }
        return nil
    }

    /// When the spring takes over (the start, without a coast). Every step the spring decides,
    /// and the settle, are at or after it.
    var springStartNanoseconds: Nanoseconds { startNanoseconds + Motion.nanoseconds(coastSeconds) }

    /// The `k`-th reported step's time, exactly as ``Motion`` has it, when the start or the coast
    /// decides it (`previous`: the step before it, or the start), or nil when the spring does (it
    /// and every later step then come at or after the spring's start) or there is no such step.
    func coastStep(_ k: Int, after previous: Nanoseconds) -> Nanoseconds? {
        guard k <= stepCount, let seconds = coastStepSeconds(k) else { return nil }
        return max(previous, startNanoseconds + Motion.nanoseconds(seconds))
    }

    /// The steps the start or the coast decides, in order, up to `horizon`, with their numbers
    /// (every step before the spring's start is among them).
    func forEachCoastStep(through horizon: Nanoseconds, _ body: (Nanoseconds, Int) -> Void) {
        var k = 1
        var previous = startNanoseconds
        while let time = coastStep(k, after: previous), time <= horizon {
            body(time, k)
            previous = time
            k += 1
        }
    }

    /// The detent the `k`-th reported step reports.
    func detent(ofStep k: Int) -> Int { startDetent + (target > startDetent ? 1 : -1) * k }

    /// Position and velocity at `time`, when it is before the spring's start (so before the settle).
    func movingState(at time: Nanoseconds) -> (position: Double, velocity: Double) {
        Motion.movingState(seconds: Double(time - startNanoseconds) / 1e9, coast: coast, coastSeconds: coastSeconds, spring: spring)
    }
}
