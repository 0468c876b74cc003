/// Infers steps per detent from where an encoder comes to rest, or says it cannot tell.
///
/// A *hold* is a visit to a state that lasts at least ``holdNanoseconds`` (the hand let go, or
/// paused), and the state the recording starts in and ends in (a knob sits still before and after
/// it is turned). A detented encoder is held on its detent states: on just one of 00 and 11 → four
/// steps per detent; on both → two; on every state, 01 and 10 included → one.
///
/// The verdict weighs these hypotheses by how likely each makes the holds seen: a turn of a random
/// number of detents leaves the knob on any of its detent states alike, so each hold (after one on
/// the same spot, merged) multiplies a hypothesis's likelihood by 1/(its detent states) — or by a
/// small ε when it is not one of them (a hand pausing part-way into a step). Holds only ever on 11
/// fit four steps best, but also two steps turned an even number of detents each time: one turn
/// cannot tell them apart, six can. The confidence is the winner's posterior share (equal priors
/// for 1, 2 and 4), and below ``decisionConfidence`` there is no verdict.
public struct StepsPerDetentDetector: Sendable {
    /// The shortest dwell that counts as a hold (default 150 ms: a hand turning a detented knob
    /// passes through a state far faster, and contact bounce lasts a few ms).
    package let holdNanoseconds: Nanoseconds
    /// The posterior share a verdict needs (0.75).
    package static let decisionConfidence = 0.75
    /// The chance that a hold is not on a detent state (a hand resting part-way into a step).
    static let offDetentChance = 0.02

    /// Holds seen on each level code (index `A<<1 | B`), the first and last state included.
    package private(set) var holdsByCode: [Int] = [0, 0, 0, 0]
    /// Holds seen by their dwell (the first and last state not included): without one, the
    /// recording shows a knob that never came to rest, and there is no verdict.
    package private(set) var dwellHolds = 0

    var current: QuadratureLevels
    var since: Nanoseconds
    /// The quarter-step count now, and where the last hold was: a dwell at the same count as the
    /// last hold (a bounce out of the state and back) is the same hold, not new evidence.
    var quarterSteps = 0
    var lastHoldQuarterSteps: Int?

    /// Creates a detector that starts at `initial` levels at time `start`; the knob rests there.
    public init(initial: QuadratureLevels, start: Nanoseconds, holdNanoseconds: Nanoseconds = 150_000_000) {
        self.holdNanoseconds = holdNanoseconds
        self.current = initial
        self.since = start
        recordHold()
    }

    /// Records the levels after a change at `timeNanoseconds`.
    package mutating func observe(_ levels: QuadratureLevels, at timeNanoseconds: Nanoseconds) {
        guard levels != current else { return }
        if timeNanoseconds - since >= holdNanoseconds, recordHold() { dwellHolds += 1 }
        switch (levels.phase - current.phase + 4) % 4 {
        case 1: quarterSteps += 1
        case 3: quarterSteps -= 1
        default: break  // an invalid double step: the count cannot say which way
        }
        current = levels
        since = timeNanoseconds
    }

    /// Records the end of the observation: the knob rests in its final state.
    public mutating func finish(at timeNanoseconds: Nanoseconds) {
        if recordHold(), timeNanoseconds - since >= holdNanoseconds { dwellHolds += 1 }
        since = timeNanoseconds
    }

    /// Counts a hold of the current state unless it is the last hold again; says whether it did.
    @discardableResult
    mutating func recordHold() -> Bool {
        guard lastHoldQuarterSteps != quarterSteps else { return false }
        lastHoldQuarterSteps = quarterSteps
        holdsByCode[Int(current.code)] += 1
        return true
    }

    /// The verdict so far.
    package var estimate: Estimate {
        let holds = holdsByCode.reduce(0, +)
        guard dwellHolds > 0 else {
            return Estimate(stepsPerDetent: nil, likeliest: nil, rest: nil, confidence: 0, holds: holds, holdsByCode: holdsByCode)
        }
        let held00 = holdsByCode[0], held11 = holdsByCode[3], heldBetween = holdsByCode[1] + holdsByCode[2]
        let ε = Self.offDetentChance
        // Log-likelihoods: each hold on one of the hypothesis's d detent states has (1 − ε)/d, off them ε/4.
        func logLikelihood(onDetents: Int, offDetents: Int, detentStates: Double) -> Double {
            Double(onDetents) * Elementary.log((1 - ε) / detentStates) + Double(offDetents) * Elementary.log(ε / 4)
        }
        let four00 = logLikelihood(onDetents: held00, offDetents: holds - held00, detentStates: 1)
        let four11 = logLikelihood(onDetents: held11, offDetents: holds - held11, detentStates: 1)
        let two = logLikelihood(onDetents: held00 + held11, offDetents: heldBetween, detentStates: 2)
        let one = logLikelihood(onDetents: holds, offDetents: 0, detentStates: 4)
        // Equal priors for 1, 2 and 4 steps; 4 splits its prior between its two rest states.
        let weights = [(StepsPerDetent.four, four00, 0.5), (.four, four11, 0.5), (.two, two, 1), (.one, one, 1)]
        let top = weights.map(\.1).max() ?? 0
        let shares = weights.map { ($0.0, $0.2 * Elementary.exp($0.1 - top)) }
        let total = shares.reduce(0) { $0 + $1.1 }
        var posterior: [StepsPerDetent: Double] = [:]
        for (steps, share) in shares { posterior[steps, default: 0] += share / total }
        let best = posterior.max { $0.value < $1.value }!
        let rest = QuadratureLevels(code: held11 >= held00 ? 3 : 0)
        return Estimate(
            stepsPerDetent: best.value >= Self.decisionConfidence ? best.key : nil, likeliest: best.key, rest: rest,
            confidence: best.value, holds: holds, holdsByCode: holdsByCode)
    }

    /// A detection result.
    public struct Estimate: Sendable, Hashable {
        /// The inferred steps per detent, or nil when the holds do not decide it.
        public var stepsPerDetent: StepsPerDetent?
        /// The likeliest steps per detent, decided or not (nil when the knob never came to rest).
        public var likeliest: StepsPerDetent?
        /// The rest state detents align to (the more held of 00 and 11).
        public var rest: QuadratureLevels?
        /// The likeliest hypothesis's posterior share, 0...1.
        public var confidence: Double
        /// How many holds were seen (the first and last state included).
        package var holds: Int
        /// Holds per level code (index `A<<1 | B`).
        package var holdsByCode: [Int]
    }

    /// Detects steps per detent over a whole trace; the knob rests before its first edge and after
    /// its last (the trace ends at `end`, when given, else at its last edge).
    public static func detect(
        _ trace: QuadratureTrace, end: Nanoseconds? = nil, holdNanoseconds: Nanoseconds = 150_000_000
    ) -> Estimate {
        let samples = trace.samples
        let start = trace.edges.first?.timeNanoseconds ?? 0
        var detector = StepsPerDetentDetector(initial: trace.initial, start: start, holdNanoseconds: holdNanoseconds)
        for sample in samples { detector.observe(sample.levels, at: sample.timeNanoseconds) }
        detector.finish(at: end ?? samples.last?.timeNanoseconds ?? start)
        return detector.estimate
    }
}
