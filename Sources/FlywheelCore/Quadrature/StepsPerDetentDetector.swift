/// Infers steps per detent from where an encoder comes to rest.
///
/// A *rest* is a visit to a state that lasts at least ``minimumRestNanoseconds``. A detented
/// encoder rests on its detent states only: on both 00 and 11 → two steps per detent; on
/// just one of them → four; on every state (including 01 and 10) → one.
public struct StepsPerDetentDetector: Sendable {
    /// The shortest dwell that counts as a rest (default 20 ms: a hand-turned knob passes
    /// through its in-between states far faster, and contact bounce lasts at most a few ms).
    public let minimumRestNanoseconds: Nanoseconds
    /// Rests seen on each level code.
    public private(set) var restsByCode: [Int] = [0, 0, 0, 0]

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
        if timeNanoseconds - since >= minimumRestNanoseconds { restsByCode[Int(current.code)] += 1 }
        current = levels
        since = timeNanoseconds
    }

    /// Records the end of the observation (the final state's dwell counts if long enough).
    public mutating func finish(at timeNanoseconds: Nanoseconds) {
        if timeNanoseconds - since >= minimumRestNanoseconds { restsByCode[Int(current.code)] += 1 }
        since = timeNanoseconds
    }

    /// The verdict so far.
    public var estimate: Estimate {
        let total = restsByCode.reduce(0, +)
        guard total > 0 else {
            return Estimate(stepsPerDetent: nil, rest: nil, confidence: 0, rests: 0, restsByCode: restsByCode)
        }
        // Score each hypothesis by the share of rests it explains; a hypothesis that explains a
        // rest with fewer rest states is preferred (four before two before one).
        let r00 = restsByCode[0], r11 = restsByCode[3], mixed = restsByCode[1] + restsByCode[2]
        let dominant = max(r00, r11), minor = min(r00, r11)
        let significance = max(2, total / 10)  // a state counts as "rested on" past noise
        let stepsPerDetent: StepsPerDetent
        let explained: Int
        let rest: QuadratureLevels
        if mixed >= significance {
            stepsPerDetent = .one
            explained = total
            rest = QuadratureLevels(code: r11 >= r00 ? 3 : 0)
        } else if minor >= significance {
            stepsPerDetent = .two
            explained = r00 + r11
            rest = QuadratureLevels(code: r11 >= r00 ? 3 : 0)
        } else {
            stepsPerDetent = .four
            explained = dominant
            rest = QuadratureLevels(code: r11 >= r00 ? 3 : 0)
        }
        // Confidence: the share explained, scaled by how much evidence there is (8 rests = full).
        let share = Double(explained) / Double(total)
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
