/// One knob with feel: it follows the hand, and when the hand lets go it coasts and springs onto a
/// detent. Consumers get the same detent events for hand motion and for momentum (the inertia
/// lives here, on the input side, as in the circular-scrolling article).
///
/// Time is always a parameter: feed input with ``move(by:at:touching:into:)`` and ``lift(at:into:)``, ask
/// ``nextDeadline`` when to call ``advance(to:into:)`` next, and nothing ticks at rest.
public struct KnobEngine: Sendable {
    /// An observable change.
    public enum Event: Sendable, Hashable {
        /// A hand gesture began.
        case began(timeNanoseconds: Nanoseconds)
        /// The reported detent changed (by hand or by momentum).
        case detent(Int, timeNanoseconds: Nanoseconds)
        /// The hand let go (touch lift, or silence on an encoder), with the release velocity.
        case released(velocity: Double, timeNanoseconds: Nanoseconds)
        /// The knob came to rest on a detent and the gesture is over: the motion settled and no
        /// input came for the new-gesture gap (200 ms), so a slow turn is not cut into pieces.
        case rest(Int, timeNanoseconds: Nanoseconds)
    }

    /// The feel.
    package var parameters: FeelParameters { didSet { refreshHandOverNextStep(); refreshDeadline() } }
    /// The range.
    public var bounds: Bounds { didSet { refreshHandOverNextStep(); refreshDeadline() } }
    /// The detent reported now.
    public private(set) var reportedDetent: Int
    /// The hand's position in detents while a gesture is under way.
    package private(set) var handPosition: Double
    /// The motion after a release, until it rests.
    package private(set) var motion: Motion?
    /// Whether a hand gesture is under way.
    package private(set) var gestureActive = false
    /// The steps a turned detent makes at the hand's speed (``AccelerationCurve``; default off).
    /// Only turns accelerate: a touch follows the finger, and a bounce of the contacts is one step.
    package var acceleration: AccelerationCurve = .off
    /// The hand's speed while it turns (the acceleration's input).
    var handSpeed = HandSpeed()
    /// The fraction of a step the acceleration owes the hand (whole steps are taken, the rest
    /// carried to the next detent in the same direction).
    var accelerationCarry = 0.0
    /// The acceleration's factor at the hand's last move: the release speed cap grows with it, so
    /// the coast after a fast turn starts from the speed the hand had, not from a capped one.
    package private(set) var accelerationFactor = 1.0

    /// The most detent events one input produces; a longer jump is reported as one event.
    package static let maximumDetentEvents = 64
    /// The hand's position is kept within ±2⁵² detents (exact in a Double, safe as an Int).
    package static let maximumPosition = 4_503_599_627_370_496.0

    var estimator: VelocityEstimator
    var lastInput: Nanoseconds?
    var touching = false
    var carriedVelocity = 0.0
    var now: Nanoseconds = .min
    var restPendingSince: Nanoseconds?
    /// The sign of the last hand move (bounce is a move against it within the bounce window).
    var lastDirection = 0.0
    /// While contacts bounce, the reported detent waits for them to be quiet until this time.
    var bounceQuietAt: Nanoseconds?
    /// While an encoder's silence is not yet a release: the motion that release will start from
    /// the hand's last move. Frames show it and its detent steps are reported as they happen, so
    /// the hand hands over to the coast without a stop; the next input replans it.
    var handOver: HandOver? {
        get { handOverCore.map { HandOver(core: $0, whole: handOverWhole) } }
        set {
            handOverCore = newValue?.core
            handOverWhole = newValue?.whole
        }
    }
    /// The hand-over kept as its parts: the plan and cursor are plain values, so replanning at
    /// every detent overwrites them without a destroy.
    var handOverCore: HandOver.Core?
    var handOverWhole: Motion?
    /// The hand-over's next step to report, if it comes at or before the release (kept beside
    /// it, so the deadline reads a number rather than the hand-over).
    var handOverNextStep: Nanoseconds?
    /// The hand-over's detent steps up to this time have been reported.
    var handOverReportedThrough: Nanoseconds = .min

    /// Creates a knob resting on `detent`.
    public init(parameters: FeelParameters = FeelParameters(), bounds: Bounds = .unbounded, detent: Int = 0) {
        self.parameters = parameters
        self.bounds = bounds
        self.reportedDetent = bounds.clamp(detent)
        self.handPosition = Double(bounds.clamp(detent))
        self.estimator = VelocityEstimator(
            windowNanoseconds: parameters.velocityWindowNanoseconds, stalenessNanoseconds: parameters.velocityStalenessNanoseconds)
    }

    /// Puts the knob on `detent` at rest (a client `set`): stops any motion.
    public mutating func set(detent: Int) {
        motion = nil
        restPendingSince = nil
        bounceQuietAt = nil
        forgetHandOver()
        gestureActive = false
        touching = false
        reportedDetent = bounds.clamp(detent)
        handPosition = Double(reportedDetent)
        refreshDeadline()
    }

    /// The hand moved the knob by `delta` detents at `time` (`touching`: a touch panel, which
    /// releases on lift rather than on silence).
    /// Its events are appended to `events`.
    package mutating func move(by delta: Double, at time: Nanoseconds, touching: Bool = false, into events: inout [Event]) {
        defer { refreshDeadline() }
        bring(to: time, into: &events)
        restPendingSince = nil
        if let motion {
            // Input during a coast: against it the knob stops at once; with it the hand takes over
            // from the current position and keeps the current velocity. During the spring the
            // detent is already decided and the spring only seats the knob on it, so the hand
            // continues from that detent: every hardware detent then moves the count by exactly
            // one, whatever phase of the settle it arrives in.
            let state = motion.state(at: time)
            if state.phase == .coasting {
                let against = motion.coast != nil && (delta > 0) != (state.velocity > 0)
                carriedVelocity = against ? 0 : state.velocity
                handPosition = state.position
            } else {
                carriedVelocity = 0
                handPosition = Double(motion.target)
            }
            reportedDetent = state.reportedDetent
            self.motion = nil
        }
        // Input within 200 ms of the last continues the gesture, even across a silence release
        // (a slow turn is one gesture); a longer gap starts a new one.
        let continuing = (gestureActive && self.touching) || lastInput.map({ time - $0 <= parameters.newGestureGapNanoseconds }) ?? false
        if !continuing {
            events.append(.began(timeNanoseconds: time))
            estimator.reset()
            handSpeed.reset()
            accelerationCarry = 0
        }
        gestureActive = true
        self.touching = touching
        // A move against the last one within the bounce window is the contacts bouncing: it moves
        // the hand, but the step it bounced on keeps its time in the velocity fit, and the reported
        // detent waits until the contacts are quiet before it steps back.
        let direction: Double = delta > 0 ? 1 : delta < 0 ? -1 : 0
        let bounce = continuing && direction != 0 && direction == -lastDirection
            && lastInput.map({ time - $0 <= parameters.bounceWindowNanoseconds }) ?? false
        var delta = delta
        if touching || acceleration.isOff {
            accelerationFactor = 1
        } else if !bounce, direction != 0 {
            delta = accelerated(delta, direction: direction, at: time)
        }
        handPosition = bounds.held(min(max(handPosition + delta, -Self.maximumPosition), Self.maximumPosition))
        if bounce {
            estimator.replaceNewest(with: handPosition)
            bounceQuietAt = time + parameters.bounceWindowNanoseconds
        } else {
            estimator.add(handPosition, at: time)
            bounceQuietAt = nil  // real motion: the report follows the hand at once
        }
        if direction != 0 { lastDirection = direction }
        lastInput = time
        if bounceQuietAt == nil { followHand(at: time, moving: direction, into: &events) }
        planHandOver()
    }

    /// A turn's `delta` detents (moving in `direction`) with the acceleration at the hand's speed:
    /// the detents themselves plus the whole extra steps the curve's factor gives, the fraction
    /// carried. Never fewer steps than detents, never against the hand; a factor of 1 adds nothing.
    mutating func accelerated(_ delta: Double, direction: Double, at time: Nanoseconds) -> Double {
        if direction != lastDirection {
            handSpeed.reset()
            accelerationCarry = 0
        }
        accelerationFactor = acceleration.factor(atSpeed: handSpeed.record(delta, at: time))
        let extra = delta * (accelerationFactor - 1) + accelerationCarry
        let whole = extra.rounded(.towardZero)
        accelerationCarry = extra - whole
        return delta + whole
    }

    /// The feel a release plans with: the speed cap grown by the acceleration's factor.
    var releaseParameters: FeelParameters { parameters.accelerated(by: accelerationFactor) }

    /// The hand-over's next step after what is reported, up to the release as the parameters now
    /// have it (they may have changed since it was planned).
    mutating func refreshHandOverNextStep() {
        guard handOverCore != nil, let lastInput else { return }
        handOverNextStep = handOverCore!.firstStep(
            after: handOverReportedThrough, upTo: lastInput + parameters.releaseSilenceNanoseconds, whole: handOverWhole)
    }

    /// Plans the hand-over motion from the hand's last move (an encoder's, with no bounce
    /// pending) when its release would fling; a hand too slow to fling just stops, as it is.
    mutating func planHandOver() {
        guard gestureActive, !touching, bounceQuietAt == nil, let lastInput else { return forgetHandOver() }
        let velocity = releaseVelocity(measured: estimator.velocity(atRelease: lastInput))
        guard velocity != 0, abs(velocity) >= parameters.effectiveMinimumFlingSpeed else { return forgetHandOver() }
        let release = lastInput + parameters.releaseSilenceNanoseconds
        let plan = MotionPlan(
            releasedAt: lastInput, position: handPosition, velocity: velocity, reportedDetent: reportedDetent, bounds: bounds,
            parameters: releaseParameters)
        // As `HandOver(plan, release:)`, built where it is kept (a hand-over is 150 bytes).
        let whole = HandOver.needsWhole(plan, release: release) ? Motion(plan) : nil
        let core = HandOver.Core(plan, release: release)
        handOverReportedThrough = lastInput - 1
        handOverNextStep = core.firstStep(after: handOverReportedThrough, upTo: release, whole: whole)
        handOverCore = core
        handOverWhole = whole
    }

    /// No hand-over (destroyed only when there is one: the check is cheaper than the destroy).
    mutating func forgetHandOver() {
        if handOverCore != nil { handOverCore = nil }  // (writing nil writes all 150 bytes)
        if handOverWhole != nil { handOverWhole = nil }
        handOverNextStep = nil
    }

    /// The reported detent follows the hand with a tenth of a detent of hysteresis, one step at a time.
    /// A hand move in `direction` (±1; 0: either way) never steps it the other way: a hand-over
    /// may have reported the coast's steps ahead of the hand, and the hand catches them up.
    /// Further than ``maximumDetentEvents`` from the hand, either way, it jumps there as one
    /// event: so every motion planned from it starts within that many steps of the hand (a report
    /// left far behind, by a far bounce the hand then turned on from, would step all the way at
    /// the motion's start, one event a detent).
    mutating func followHand(at time: Nanoseconds, moving direction: Double = 0, into events: inout [Event]) {
        let shown = bounds.displayed(handPosition)
        let landing = bounds.clamp(shown > Double(reportedDetent) ? Int((shown - 0.6).rounded(.up)) : Int((shown + 0.6).rounded(.down)))
        if abs(landing - reportedDetent) > Self.maximumDetentEvents {
            reportedDetent = landing
            events.append(.detent(reportedDetent, timeNanoseconds: time))
            return
        }
        if direction != 0, Double(landing - reportedDetent) * direction < 0 { return }
        while shown - Double(reportedDetent) > 0.6, bounds.clamp(reportedDetent + 1) != reportedDetent {
            reportedDetent += 1
            events.append(.detent(reportedDetent, timeNanoseconds: time))
        }
        while Double(reportedDetent) - shown > 0.6, bounds.clamp(reportedDetent - 1) != reportedDetent {
            reportedDetent -= 1
            events.append(.detent(reportedDetent, timeNanoseconds: time))
        }
    }

    /// A touch lifted at `time`: the release.
    /// Its events are appended to `events`.
    package mutating func lift(at time: Nanoseconds, into events: inout [Event]) {
        defer { refreshDeadline() }
        bring(to: time, into: &events)
        guard gestureActive else { return }
        release(at: time, velocity: estimator.velocity(atRelease: time), into: &events)
    }

    /// When ``advance(to:into:)`` must next be called, or nil at rest. Kept up to date by every change
    /// (a group of knobs asks it of every knob at every step and wake-up).
    public private(set) var nextDeadline: Nanoseconds?

    mutating func refreshDeadline() { nextDeadline = computedDeadline }

    /// ``nextDeadline`` worked out from the state.
    var computedDeadline: Nanoseconds? {
        if let bounceQuietAt {
            // A silence that releases the hand before the contacts are quiet comes first.
            if gestureActive && !touching, let lastInput { return min(bounceQuietAt, lastInput + parameters.releaseSilenceNanoseconds) }
            return bounceQuietAt
        }
        if gestureActive && !touching, let lastInput {
            let release = lastInput + parameters.releaseSilenceNanoseconds
            return min(release, handOverNextStep ?? release)
        }
        // Read in place (an `if let` would copy the motion out, arrays and all).
        if motion != nil { return motion!.nextDeadline(after: now) }
        if let settled = restPendingSince { return max(settled, (lastInput ?? settled) + parameters.newGestureGapNanoseconds) }
        return nil
    }

    /// Brings the knob to `time`: a silence that released the hand, detent steps of the motion,
    /// and its rest, each stamped with its own time.
    /// Its events are appended to `events`.
    public mutating func advance(to time: Nanoseconds, into events: inout [Event]) {
        bring(to: time, into: &events)
        refreshDeadline()
    }

    /// ``advance(to:into:)`` without working out the next deadline (its caller does, once).
    mutating func bring(to time: Nanoseconds, into events: inout [Event]) {
        if let quiet = bounceQuietAt, time >= quiet {
            bounceQuietAt = nil
            followHand(at: quiet, into: &events)
            planHandOver()
        }
        if gestureActive && !touching, handOverCore != nil, let lastInput {
            // The hand-over's detent steps, each at its own time, up to the release.
            let through = min(time, lastInput + parameters.releaseSilenceNanoseconds)
            var reported = reportedDetent
            handOverNextStep = handOverCore!.reportSteps(
                after: handOverReportedThrough, through: through, release: lastInput + parameters.releaseSilenceNanoseconds, whole: handOverWhole
            ) { time, detent in
                reported = detent
                events.append(.detent(detent, timeNanoseconds: time))
            }
            reportedDetent = reported
            handOverReportedThrough = max(handOverReportedThrough, through)
            now = max(now, through)
        }
        if gestureActive && !touching, let lastInput, time >= lastInput + parameters.releaseSilenceNanoseconds {
            // Silence is the release; the velocity is the hand's as it last moved, and the motion
            // is the hand-over, under way since the hand last moved.
            let release = lastInput + parameters.releaseSilenceNanoseconds
            let handedOver = handOverCore.map { handOverWhole ?? Motion($0.plan) }
            self.release(at: release, velocity: estimator.velocity(atRelease: lastInput), handedOver: handedOver, into: &events)
        }
        if let motion {
            motion.forEachStep(after: max(now, motion.startNanoseconds - 1), through: time) { time, detent in
                reportedDetent = detent
                events.append(.detent(detent, timeNanoseconds: time))
            }
            if time >= motion.settleNanoseconds {
                reportedDetent = motion.target
                handPosition = Double(motion.target)
                self.motion = nil
                restPendingSince = motion.settleNanoseconds
            }
        }
        if let settled = restPendingSince {
            let restTime = max(settled, (lastInput ?? settled) + parameters.newGestureGapNanoseconds)
            if time >= restTime {
                restPendingSince = nil
                events.append(.rest(reportedDetent, timeNanoseconds: restTime))
            }
        }
        now = max(now, time)
    }

    /// The release at `time`: the motion is the hand-over under way (`handedOver`, its whole
    /// motion, whose steps up to now are reported), or one planned from here.
    mutating func release(at time: Nanoseconds, velocity measured: Double, handedOver: Motion? = nil, into events: inout [Event]) {
        // A bounce still settling: the motion starts from where the hand is.
        if bounceQuietAt != nil {
            bounceQuietAt = nil
            followHand(at: time, into: &events)
        }
        gestureActive = false
        touching = false
        let velocity = releaseVelocity(measured: measured)
        carriedVelocity = 0
        forgetHandOver()
        motion = handedOver ?? Motion(
            releasedAt: time, position: handPosition, velocity: velocity, reportedDetent: reportedDetent,
            bounds: bounds, parameters: releaseParameters)
        events.append(.released(velocity: velocity, timeNanoseconds: time))
        now = max(now, time)
        bring(to: time, into: &events)
    }

    /// The release velocity: the measured one, plus the momentum the hand took over from a coast
    /// when it turned the same way.
    func releaseVelocity(measured: Double) -> Double {
        guard carriedVelocity != 0, (carriedVelocity > 0) == (measured >= 0) || measured == 0 else { return measured }
        return measured + carriedVelocity
    }

    /// Position and velocity at `time` for continuous frames (nil at rest, and under a finger that
    /// rests: one that has not moved for the velocity's staleness, 40 ms, moves nothing until it
    /// moves again).
    public func frame(at time: Nanoseconds) -> (position: Double, velocity: Double)? {
        if motion != nil {
            let state = motion!.state(at: time)  // a motion's positions are already what shows; read in place
            return (state.position, state.velocity)
        }
        guard gestureActive else { return nil }
        if touching, let lastInput, time - lastInput > parameters.velocityStalenessNanoseconds { return nil }
        guard let handOver = handOverCore, time >= handOver.plan.startNanoseconds else {
            return (bounds.displayed(handPosition), estimator.velocity(atRelease: time))
        }
        // While an encoder's silence is not yet a release, the frames show the hand-over: the hand
        // carried on into the coast without a stop.
        return handOver.state(at: time, whole: handOverWhole)
    }
}
