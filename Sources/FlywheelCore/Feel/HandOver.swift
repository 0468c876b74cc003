/// An encoder's hand-over motion while its silence is not yet a release (``KnobEngine``): the
/// motion that release will start from the hand's last move.
///
/// The knob replans it at every detent of a turn, and until the release only its steps up to the
/// release and its positions before the spring are asked for; so it is kept as a plan with those
/// first steps (``MotionPlan/coastSteps(through:)``), and the whole motion — the spring's settle,
/// a search — is worked out only when something asks for more, as the release does. Every
/// answer is the one the whole motion gives.
///
/// A class, not a struct: it never changes once planned, and a knob asks it at every step, which
/// for a struct of this size meant copying it out of the knob each time.
final class HandOver: Sendable {
    let plan: MotionPlan
    /// The motion's first steps; every step at or before `knownThrough` is among them.
    let steps: [Nanoseconds]
    let knownThrough: Nanoseconds
    /// The whole motion, when the first steps do not reach the release.
    let motion: Motion?

    /// The hand-over planned by `plan`, released (unless the hand moves first) at `release`.
    init(_ plan: MotionPlan, release: Nanoseconds) {
        self.plan = plan
        let first = plan.coastSteps(through: release)
        // Kept as a plan only when the first steps reach the release and the spring starts after
        // it: frames up to the release then need nothing more (a slow turn's hand-over has no
        // coast, and its frames would otherwise work the whole motion out again each time).
        if first.knownThrough >= release, plan.springStartNanoseconds > release {
            (steps, knownThrough, motion) = (first.steps, first.knownThrough, nil)
        } else {
            let motion = Motion(plan)
            (steps, knownThrough, self.motion) = (motion.stepNanoseconds, .max, motion)
        }
    }

    var startNanoseconds: Nanoseconds { plan.startNanoseconds }

    /// The whole motion.
    var completed: Motion { motion ?? Motion(plan) }

    /// The first step after `time` if there is one at or before `limit` (nil otherwise).
    func firstStep(after time: Nanoseconds, upTo limit: Nanoseconds) -> Nanoseconds? {
        let step = limit <= knownThrough ? steps.first(where: { $0 > time }) : completed.stepNanoseconds.first(where: { $0 > time })
        return step.flatMap { $0 <= limit ? $0 : nil }
    }

    /// Reported detent steps in (from, through], as ``Motion/steps(after:through:)``.
    func steps(after from: Nanoseconds, through to: Nanoseconds) -> [(timeNanoseconds: Nanoseconds, detent: Int)] {
        guard to <= knownThrough else { return completed.steps(after: from, through: to) }
        return Motion.steps(steps, from: plan.startDetent, to: plan.target, after: from, through: to)
    }

    /// ``steps(after:through:)`` one at a time, in order, without an array.
    func forEachStep(after from: Nanoseconds, through to: Nanoseconds, _ body: (Nanoseconds, Int) -> Void) {
        guard to <= knownThrough else { return completed.forEachStep(after: from, through: to, body) }
        Motion.forEachStep(steps, from: plan.startDetent, to: plan.target, after: from, through: to, body)
    }

    /// Position and velocity at `time` (≥ the start), as ``Motion/state(at:)`` has them.
    func state(at time: Nanoseconds) -> (position: Double, velocity: Double) {
        if motion == nil, time < plan.springStartNanoseconds { return plan.movingState(at: time) }
        let state = completed.state(at: time)
        return (state.position, state.velocity)
    }
}
