/// A released knob's motion until it rests on a detent: an optional coast with retuned friction,
/// then the detent spring. Every state is closed-form at any time; ``nextDeadline(after:)`` says
/// when anything observable next happens, so nothing needs to tick.
///
/// The *reported* detent never flickers: it starts at the detent reported at the release and
/// steps one detent at a time towards the target, each step at the first moment the position
/// reaches the boundary (half a detent) of the next cell; it never steps back, never past the
/// target, and an overshoot of the spring is never reported.
public struct Motion: Sendable, Hashable {
    /// What the knob is doing.
    public enum Phase: String, Sendable, Hashable {
        case coasting, springing, resting
    }

    /// The state at one instant.
    public struct State: Sendable, Hashable {
        /// Position in detents.
        public var position: Double
        /// Velocity in detents per second.
        public var velocity: Double
        public var phase: Phase
        /// The detent to report (an integer that never flickers).
        public var reportedDetent: Int
    }

    /// When the motion started (the release).
    package let startNanoseconds: Nanoseconds
    /// The detent reported at the start.
    package let startDetent: Int
    /// The detent it lands on.
    public let target: Int
    /// The coast before the spring, if any, and its length.
    public let coast: Coast?
    package let coastSeconds: Double
    /// The spring, starting `coastSeconds` after the start.
    public let spring: SpringMotion
    /// When the motion has settled (within 1e-3 detent and 1e-2 detent/s for ever).
    public let settleNanoseconds: Nanoseconds
    /// When each reported detent step happens, in order (one per detent between start and target).
    package let stepNanoseconds: [Nanoseconds]

    /// Plans the motion after a release at `position` with `velocity`, with `reportedDetent` the
    /// detent reported at that moment.
    ///
    /// The target is the detent the momentum projects to, n = round(x + v/k); a real flick (at
    /// or above the minimum fling speed) moves at least one detent in its direction; n is kept
    /// within `bounds`. When |n − x| ≤ 1, or the velocity does not point at n, the spring takes
    /// the knob straight to n carrying v (without a fling, at most the speed that travels half a
    /// detent). Otherwise the friction is retuned to k' = v/(n − x) so
    /// the coast would stop exactly on n, and the spring takes over 0.25 detent before n,
    /// carrying the velocity the coast has there.
    ///
    /// Past an end of a bounded range the motion starts from what shows — the rubber band's
    /// offset, moving at the band's slope — not from the hand's pull behind it; and when n is an
    /// end, the end is a wall (``Bounds/wallDirection(at:)``): the spring stops on it the first
    /// time it comes back from outside, so it never undershoots into the range and rests at once.
    /// Positions are what shows: frames take them as they are.
    public init(
        releasedAt start: Nanoseconds, position handPosition: Double, velocity rawVelocity: Double, reportedDetent: Int,
        bounds: Bounds = .unbounded, parameters: FeelParameters = FeelParameters()
    ) {
        self.init(
            MotionPlan(
                releasedAt: start, position: handPosition, velocity: rawVelocity, reportedDetent: reportedDetent, bounds: bounds,
                parameters: parameters))
    }

    /// The motion a plan describes: the spring's settle (or the wall) and every reported step.
    init(_ plan: MotionPlan) {
        let start = plan.startNanoseconds, spring = plan.spring, target = plan.target
        self.startNanoseconds = start
        self.startDetent = plan.startDetent
        self.target = target
        self.coast = plan.coast
        self.coastSeconds = plan.coastSeconds
        self.spring = spring
        var springSeconds = spring.settleSeconds
        if let direction = plan.bounds.wallDirection(at: target) {
            // It reaches the wall when it comes back to the end, or to within what shows of it
            // (``Bounds/wallThreshold``: a stiff, slow spring-back would otherwise creep for a second).
            let near = direction == 0 ? nil : spring.firstTime(reaching: Double(target) - direction * Bounds.wallThreshold, moving: direction, to: springSeconds)
            let exact = spring.firstTime(reaching: Double(target), moving: direction, to: springSeconds)
            // The earlier of the two, without an array of optionals: the event path builds no
            // generic type after start-up (HotPathTypes; `Tests/Benchmarks/run.sh --check-lists`).
            var wall = exact
            if let near, near < wall ?? .infinity { wall = near }
            if let wall { springSeconds = wall }
        }
        let settleSeconds = plan.coastSeconds + springSeconds
        self.settleNanoseconds = start + Motion.nanoseconds(settleSeconds)

        // The reported detent's steps: the first time the position reaches each cell boundary.
        var steps: [Nanoseconds] = []
        steps.reserveCapacity(plan.stepCount)
        var previous = start
        for k in stride(from: 1, through: plan.stepCount, by: 1) {
            var seconds = plan.coastStepSeconds(k)
            if seconds == nil, let t = spring.firstTime(reaching: plan.boundary(k), to: springSeconds) {
                seconds = plan.coastSeconds + t
            }
            let time = min(max(previous, seconds.map { start + Motion.nanoseconds($0) } ?? settleNanoseconds), settleNanoseconds)
            steps.append(time)
            previous = time
        }
        self.stepNanoseconds = steps
    }

    static func nanoseconds(_ seconds: Double) -> Nanoseconds {
        seconds.isFinite ? Nanoseconds((max(0, seconds) * 1e9).rounded(.up)) : Nanoseconds.max / 4
    }

    /// The state at `time` (≥ the start).
    public func state(at time: Nanoseconds) -> State {
        let direction = target > startDetent ? 1 : -1
        let stepsTaken = stepNanoseconds.prefix(while: { $0 <= time }).count
        let reported = startDetent + direction * stepsTaken
        if time >= settleNanoseconds {
            return State(position: Double(target), velocity: 0, phase: .resting, reportedDetent: target)
        }
        let seconds = Double(time - startNanoseconds) / 1e9
        let moving = Motion.movingState(seconds: seconds, coast: coast, coastSeconds: coastSeconds, spring: spring)
        return State(
            position: moving.position, velocity: moving.velocity, phase: coast != nil && seconds < coastSeconds ? .coasting : .springing,
            reportedDetent: reported)
    }

    /// Position and velocity `seconds` after the start of a motion that has not settled.
    /// (`spring` is asked for only past the coast: a plan works it out when asked.)
    static func movingState(
        seconds: Double, coast: Coast?, coastSeconds: Double, spring: @autoclosure () -> SpringMotion
    ) -> (position: Double, velocity: Double) {
        if let coast, seconds < coastSeconds {
            return (coast.position(after: seconds), coast.velocity(after: seconds))
        }
        let t = seconds - coastSeconds
        let spring = spring()
        return (spring.position(after: t), spring.velocity(after: t))
    }

    /// The next time after `time` at which something observable happens — a reported detent
    /// step, the hand-over from coast to spring, or the settle — or nil once settled.
    public func nextDeadline(after time: Nanoseconds) -> Nanoseconds? {
        // Without building an array: asked at every step and wake-up. The steps are in order.
        var earliest = stepNanoseconds.first(where: { $0 > time })
        if coast != nil { earliest = Pipeline.earliest(earliest, Self.after(time, startNanoseconds + Motion.nanoseconds(coastSeconds))) }
        return Pipeline.earliest(earliest, Self.after(time, settleNanoseconds))
    }

    static func after(_ time: Nanoseconds, _ candidate: Nanoseconds) -> Nanoseconds? {
        candidate > time ? candidate : nil
    }

    /// Reported detent steps in (from, through]: each with its time and the new detent.
    public func steps(after from: Nanoseconds, through to: Nanoseconds) -> [(timeNanoseconds: Nanoseconds, detent: Int)] {
        Motion.steps(stepNanoseconds, from: startDetent, to: target, after: from, through: to)
    }

    /// ``steps(after:through:)`` one at a time, in order, without an array.
    func forEachStep(after from: Nanoseconds, through to: Nanoseconds, _ body: (Nanoseconds, Int) -> Void) {
        Motion.forEachStep(stepNanoseconds, from: startDetent, to: target, after: from, through: to, body)
    }

    /// ``steps(_:from:to:after:through:)`` one at a time, in order, without an array.
    static func forEachStep(
        _ times: [Nanoseconds], from startDetent: Int, to target: Int, after from: Nanoseconds, through to: Nanoseconds,
        _ body: (Nanoseconds, Int) -> Void
    ) {
        let direction = target > startDetent ? 1 : -1
        for (index, time) in times.enumerated() where time > from && time <= to {
            body(time, startDetent + direction * (index + 1))
        }
    }

    /// The steps among `times` (the steps from `startDetent` towards `target`) in (from, through].
    static func steps(
        _ times: [Nanoseconds], from startDetent: Int, to target: Int, after from: Nanoseconds, through to: Nanoseconds
    ) -> [(timeNanoseconds: Nanoseconds, detent: Int)] {
        let direction = target > startDetent ? 1 : -1
        var steps: [(timeNanoseconds: Nanoseconds, detent: Int)] = []
        for (index, time) in times.enumerated() where time > from && time <= to {
            steps.append((time, startDetent + direction * (index + 1)))
        }
        return steps
    }
}
