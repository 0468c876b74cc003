/// Infers steps per detent from where an encoder comes to rest.
///
/// A *rest* is a visit to a state that lasts at least ``minimumRestNanoseconds``; rests are
/// weighed by the square of how long they last, so the passage of a hand through the in-between
/// states counts for little against a knob left sitting on its detents. The verdict is a
/// heuristic: a knob held part-way into a step for long stretches pulls it towards one step per
/// detent, and the confidence says how clear-cut the evidence was. A detented encoder rests on
/// its detent states: on both 00 and 11 → two steps per detent; on just one of them → four; on
/// every state (including 01 and 10) → one.
public struct StepsPerDetentDetector: Sendable {
    /// The shortest dwell that counts as a rest (default 20 ms: a hand-turned knob passes
    /// through its in-between states far faster, and contact bounce lasts at most a few ms).
    public let minimumRestNanoseconds: Nanoseconds
    /// Rests seen on each level code.
    public private(set) var restsByCode: [Int] = [0, 0, 0, 0]
    /// Sum of squared rest durations on each level code, in seconds².
    public private(set) var restWeightByCode: [Double] = [0, 0, 0, 0]

    var current: QuadratureLevels
    var since: Nanoseconds

    /// Creates a detector that starts at `initial` levels at time `start`.
    public init(initial: QuadratureLevels, start: Nanoseconds, minimumRestNanoseconds: Nanoseconds = 20_000_000) {
        self.minimumRestNanoseconds = minimumRestNanoseconds
        self.current = initial
        self.since = start
    }

    /// Records the levels after a change at `timeNanoseconds`.
    public mutating func observe(_ levels: QuadratureLevels, at timeNanoseconds: Nanoseconds) {
        guard levels != current else { return }
        record(until: timeNanoseconds)
        current = levels
        since = timeNanoseconds
    }

    /// Records the end of the observation (the final state's dwell counts if long enough).
    public mutating func finish(at timeNanoseconds: Nanoseconds) {
        record(until: timeNanoseconds)
        since = timeNanoseconds
    }

    mutating func record(until timeNanoseconds: Nanoseconds) {
        let dwell = timeNanoseconds - since
        guard dwell >= minimumRestNanoseconds else { return }
        restsByCode[Int(current.code)] += 1
        let seconds = Double(dwell) / 1e9
        restWeightByCode[Int(current.code)] += seconds * seconds
    }

    /// The verdict so far.
    public var estimate: Estimate {
        let total = restsByCode.reduce(0, +)
        guard total > 0 else {
            return Estimate(stepsPerDetent: nil, rest: nil, confidence: 0, rests: 0, restsByCode: restsByCode)
        }
        // Shares of the time spent resting: on 00, on 11, and on the two in-between states.
        let time = restWeightByCode
        let totalTime = max(time.reduce(0, +), .leastNormalMagnitude)
        let share00 = time[0] / totalTime, share11 = time[3] / totalTime
        let mixed = (time[1] + time[2]) / totalTime
        let stepsPerDetent: StepsPerDetent
        let explained: Double
        if mixed >= 0.35 {
            stepsPerDetent = .one  // rests everywhere: ideally half the time on 01/10
            explained = min(1, mixed / 0.5)
        } else if min(share00, share11) >= 0.2 {
            stepsPerDetent = .two
            explained = share00 + share11
        } else {
            stepsPerDetent = .four
            explained = max(share00, share11)
        }
        let rest = QuadratureLevels(code: share11 >= share00 ? 3 : 0)
        // Confidence: the share of resting time the verdict explains, scaled by how much evidence
        // there is (8 rests = full weight).
        let share = explained
        let evidence = min(1.0, Double(total) / 8.0)
        return Estimate(
            stepsPerDetent: stepsPerDetent, rest: rest, confidence: share * evidence,
            rests: total, restsByCode: restsByCode)
    }

    /// A detection result.
    public struct Estimate: Sendable, Hashable {
        /// The inferred steps per detent, or nil when the encoder never rested.
        public var stepsPerDetent: StepsPerDetent?
        /// The rest state detents align to.
        public var rest: QuadratureLevels?
        /// How sure, 0...1: the share of rests the verdict explains times the weight of evidence.
        public var confidence: Double
        /// How many rests were seen.
        public var rests: Int
        /// Rests per level code (index `A<<1 | B`).
        public var restsByCode: [Int]
    }

    /// Detects steps per detent over a whole trace.
    public static func detect(
        _ trace: QuadratureTrace, end: Nanoseconds? = nil, minimumRestNanoseconds: Nanoseconds = 20_000_000
    ) -> Estimate {
        let samples = trace.samples
        let start = trace.edges.first?.timeNanoseconds ?? 0
        var detector = StepsPerDetentDetector(
            initial: trace.initial, start: start, minimumRestNanoseconds: minimumRestNanoseconds)
        for sample in samples { detector.observe(sample.levels, at: sample.timeNanoseconds) }
        detector.finish(at: end ?? samples.last?.timeNanoseconds ?? start)
        return detector.estimate
    }
}
