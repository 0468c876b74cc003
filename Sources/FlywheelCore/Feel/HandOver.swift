/// An encoder's hand-over motion while its silence is not yet a release (``KnobEngine``): the
/// motion that release will start from the hand's last move.
///
/// The knob replans it at every detent of a turn, and until the release only its steps up to the
/// release and its positions before the spring are asked for, usually one or two steps before
/// the next detent replans it. So when the spring starts after the release it is kept as a plan
/// and a cursor on its steps: the next step is worked out (from the coast, closed form) when the
/// one before it is reported, and nothing is allocated. The whole motion — the spring's settle,
/// a search — is worked out only when something asks for more, as the release does. Every
/// answer is the one the whole motion gives.
struct HandOver: Sendable {
    /// Everything but the whole motion: plain values, so a knob that replans at every detent
    /// overwrites one without a destroy (``KnobEngine`` keeps the whole motion beside it).
    var core: Core
    /// The whole motion, when the spring starts at or before the release (the plan alone then
    /// does not answer up to the release).
    let whole: Motion?

    /// The hand-over planned by `plan`, released (unless the hand moves first) at `release`.
    init(_ plan: MotionPlan, release: Nanoseconds) {
        // Every step the spring decides comes at or after its start: with the spring starting
        // after the release, the coast alone decides every step up to the release, and frames up
        // to the release need nothing more (a slow turn's hand-over has no coast, and its frames
        // would otherwise work the whole motion out again each time).
        whole = Self.needsWhole(plan, release: release) ? Motion(plan) : nil
        core = Core(plan, release: release)
    }

    /// Whether the plan alone does not answer up to `release` (the spring starts at or before
    /// it), so the whole motion is worked out at the start.
    static func needsWhole(_ plan: MotionPlan, release: Nanoseconds) -> Bool { plan.springStartNanoseconds <= release }

    /// A hand-over from its parts.
    init(core: Core, whole: Motion?) {
        self.core = core
        self.whole = whole
    }

    var plan: MotionPlan { core.plan }
    /// The whole motion, when it was worked out at the start.
    var motion: Motion? { whole }
    var cursorStep: Int { core.cursorStep }
    var startNanoseconds: Nanoseconds { core.plan.startNanoseconds }
    /// The whole motion.
    var completed: Motion { core.completed(whole) }

    /// The first step after `time` if there is one at or before `limit` (nil otherwise).
    func firstStep(after time: Nanoseconds, upTo limit: Nanoseconds) -> Nanoseconds? { core.firstStep(after: time, upTo: limit, whole: whole) }

    /// Reported detent steps in (from, through], as ``Motion/steps(after:through:)``.
    func steps(after from: Nanoseconds, through to: Nanoseconds) -> [(timeNanoseconds: Nanoseconds, detent: Int)] {
        var steps: [(timeNanoseconds: Nanoseconds, detent: Int)] = []
        core.forEachStep(after: from, through: to, whole: whole) { steps.append(($0, $1)) }
        return steps
    }

    /// ``Core/reportSteps(after:through:release:whole:_:)``.
    mutating func reportSteps(
        after from: Nanoseconds, through to: Nanoseconds, release: Nanoseconds, _ body: (Nanoseconds, Int) -> Void
    ) -> Nanoseconds? {
        core.reportSteps(after: from, through: to, release: release, whole: whole, body)
    }

    /// Position and velocity at `time` (≥ the start), as ``Motion/state(at:)`` has them.
    func state(at time: Nanoseconds) -> (position: Double, velocity: Double) { core.state(at: time, whole: whole) }

    /// The plan and the cursor on its steps. Its answers need the whole motion when the plan
    /// alone does not give them: each is passed it (the hand-over's ``whole``).
    struct Core: Sendable {
        let plan: MotionPlan
        /// The plan's spring start, or `.min` when the whole motion answers instead: before it,
        /// the plan's coast steps are every step there is.
        let planAnswersBefore: Nanoseconds
        /// The step the cursor is on (1 for the first).
        private(set) var cursorStep = 1
        /// The time of the step before it (the start for the first).
        private(set) var cursorBefore: Nanoseconds
        /// Its time, or nil when no step comes before the spring's start from it on.
        private(set) var cursorTime: Nanoseconds?

        /// The plan and its cursor for a hand-over released at `release`.
        init(_ plan: MotionPlan, release: Nanoseconds) {
            self.plan = plan
            let springStart = plan.springStartNanoseconds
            self.planAnswersBefore = springStart > release ? springStart : .min
            cursorBefore = plan.startNanoseconds
            cursorTime = plan.coastStep(1, after: plan.startNanoseconds)
        }

        /// The whole motion (`whole`, or worked out from the plan).
        func completed(_ whole: Motion?) -> Motion { whole ?? Motion(plan) }

        /// Whether the plan's coast steps answer every step up to `time`.
        func planAnswers(through time: Nanoseconds) -> Bool { time < planAnswersBefore }

        /// Whether the cursor is where a question after `time` starts: every step before it is
        /// at or before `time`.
        func cursorAnswers(after time: Nanoseconds) -> Bool { cursorStep == 1 || cursorBefore <= time }

        /// The first step after `time` if there is one at or before `limit` (nil otherwise).
        func firstStep(after time: Nanoseconds, upTo limit: Nanoseconds, whole: Motion?) -> Nanoseconds? {
            guard planAnswers(through: limit) else {
                return completed(whole).stepNanoseconds.first(where: { $0 > time }).flatMap { $0 <= limit ? $0 : nil }
            }
            var first: Nanoseconds?
            if cursorAnswers(after: time), cursorTime.map({ $0 > time }) ?? true {
                first = cursorTime
            } else {
                plan.forEachCoastStep(through: limit) { step, _ in
                    if first == nil, step > time { first = step }
                }
            }
            return first.flatMap { $0 <= limit ? $0 : nil }
        }

        /// Reported detent steps in (from, through] one at a time, in order, without an array.
        func forEachStep(after from: Nanoseconds, through to: Nanoseconds, whole: Motion?, _ body: (Nanoseconds, Int) -> Void) {
            guard planAnswers(through: to) else { return completed(whole).forEachStep(after: from, through: to, body) }
            plan.forEachCoastStep(through: to) { time, step in
                if time > from { body(time, plan.detent(ofStep: step)) }
            }
        }

        /// ``forEachStep(after:through:whole:_:)`` for steps asked in order, as the knob reports
        /// them: from the cursor when it is there (moving it past `to`), each step worked out
        /// once. Returns the next step, as ``firstStep(after:upTo:whole:)`` after what is now
        /// reported, up to `release`.
        mutating func reportSteps(
            after from: Nanoseconds, through to: Nanoseconds, release: Nanoseconds, whole: Motion?, _ body: (Nanoseconds, Int) -> Void
        ) -> Nanoseconds? {
            guard planAnswers(through: to), cursorAnswers(after: from) else {
                forEachStep(after: from, through: to, whole: whole, body)
                return firstStep(after: max(from, to), upTo: release, whole: whole)
            }
            while let time = cursorTime, time <= to {
                if time > from { body(time, plan.detent(ofStep: cursorStep)) }
                cursorStep += 1
                cursorBefore = time
                cursorTime = plan.coastStep(cursorStep, after: time)
            }
            // Every step before the cursor is now at or before `max(from, to)`, and the cursor's
            // after it; the plan answers up to a release before the spring's start.
            guard planAnswers(through: release) else { return firstStep(after: max(from, to), upTo: release, whole: whole) }
            return cursorTime.flatMap { $0 <= release ? $0 : nil }
        }

        /// Position and velocity at `time` (≥ the start), as ``Motion/state(at:)`` has them.
        func state(at time: Nanoseconds, whole: Motion?) -> (position: Double, velocity: Double) {
            if time < planAnswersBefore { return plan.movingState(at: time) }
            let state = completed(whole).state(at: time)
            return (state.position, state.velocity)
        }
    }
}
