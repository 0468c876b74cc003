/// The release velocity from timestamped positions: the least-squares slope over the samples of
/// the last 100 ms before the release.
public struct VelocityEstimator: Sendable, Hashable {
    /// A position (detents) at a time.
    public struct Sample: Sendable, Hashable {
        public var timeNanoseconds: Nanoseconds
        public var position: Double
        public init(timeNanoseconds: Nanoseconds, position: Double) {
            self.timeNanoseconds = timeNanoseconds
            self.position = position
        }
    }

    /// Fit window (default 100 ms).
    public var windowNanoseconds: Nanoseconds
    /// Staleness limit (default 40 ms).
    public var stalenessNanoseconds: Nanoseconds
    /// Recent samples, oldest first (only the window's worth is kept).
    public private(set) var samples: [Sample] = []

    /// Creates an estimator.
    public init(windowNanoseconds: Nanoseconds = 100_000_000, stalenessNanoseconds: Nanoseconds = 40_000_000) {
        self.windowNanoseconds = windowNanoseconds
        self.stalenessNanoseconds = stalenessNanoseconds
    }

    /// Adds a sample (times must not go backwards).
    public mutating func add(_ position: Double, at time: Nanoseconds) {
        samples.append(Sample(timeNanoseconds: time, position: position))
        let cutoff = time - windowNanoseconds
        if let first = samples.firstIndex(where: { $0.timeNanoseconds >= cutoff }), first > 0 {
            samples.removeFirst(first)
        }
    }

    /// Moves the newest sample to `position`, keeping its time: contact bounce right after a step
    /// changes where the step ended, not when it happened, and adds no sample of its own.
    public mutating func replaceNewest(with position: Double) {
        guard !samples.isEmpty else { return }
        samples[samples.count - 1].position = position
    }

    /// Forgets every sample (a new gesture).
    public mutating func reset() { samples.removeAll() }

    /// The velocity at a release at `release`, in detents per second.
    ///
    /// 0 when the newest sample is more than 40 ms older than the release, or when the window
    /// holds fewer than three samples (two points are too easily one detent's jitter); otherwise
    /// the least-squares slope of the window's samples.
    public func velocity(atRelease release: Nanoseconds) -> Double {
        guard let newest = samples.last, release - newest.timeNanoseconds <= stalenessNanoseconds else { return 0 }
        let window = samples.filter { $0.timeNanoseconds >= release - windowNanoseconds }
        guard window.count >= 3 else { return 0 }
        // Times relative to the newest sample, in seconds, for conditioning.
        let ts = window.map { Double($0.timeNanoseconds - newest.timeNanoseconds) / 1e9 }
        let xs = window.map(\.position)
        let n = Double(window.count)
        let meanT = ts.reduce(0, +) / n, meanX = xs.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0
        for (t, x) in zip(ts, xs) {
            sxx += (t - meanT) * (t - meanT)
            sxy += (t - meanT) * (x - meanX)
        }
        return sxx > 0 ? sxy / sxx : 0
    }
}
