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
    package var stalenessNanoseconds: Nanoseconds
    /// Recent samples, oldest first (only the window's worth is kept).
    public var samples: [Sample] { Array(storage[start...]) }
    /// The samples from `start` on; older ones before it wait to be dropped in one go.
    private var storage: [Sample] = []
    private var start = 0

    /// Creates an estimator.
    public init(windowNanoseconds: Nanoseconds = 100_000_000, stalenessNanoseconds: Nanoseconds = 40_000_000) {
        self.windowNanoseconds = windowNanoseconds
        self.stalenessNanoseconds = stalenessNanoseconds
    }

    /// Samples left before `start` before they are dropped (moving the rest down once for many).
    static let droppedAtOnce = 32

    /// Adds a sample (times must not go backwards).
    public mutating func add(_ position: Double, at time: Nanoseconds) {
        if start >= Self.droppedAtOnce {
            storage.removeFirst(start)
            start = 0
        }
        storage.append(Sample(timeNanoseconds: time, position: position))
        let cutoff = time - windowNanoseconds
        var first = start
        while first < storage.count, storage[first].timeNanoseconds < cutoff { first += 1 }
        if first < storage.count { start = first }  // none in the window (a negative one): all kept
    }

    /// Moves the newest sample to `position`, keeping its time: contact bounce right after a step
    /// changes where the step ended, not when it happened, and adds no sample of its own.
    package mutating func replaceNewest(with position: Double) {
        guard start < storage.count else { return }
        storage[storage.count - 1].position = position
    }

    /// Forgets every sample (a new gesture).
    package mutating func reset() {
        storage.removeAll(keepingCapacity: true)
        start = 0
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.windowNanoseconds == b.windowNanoseconds && a.stalenessNanoseconds == b.stalenessNanoseconds
            && a.storage[a.start...].elementsEqual(b.storage[b.start...])
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(windowNanoseconds)
        hasher.combine(stalenessNanoseconds)
        hasher.combine(storage.count - start)
        for sample in storage[start...] { hasher.combine(sample) }
    }

    /// The velocity at a release at `release`, in detents per second.
    ///
    /// 0 when the newest sample is more than 40 ms older than the release, or when the window
    /// holds fewer than three samples (two points are too easily one detent's jitter); otherwise
    /// the least-squares slope of the window's samples.
    public func velocity(atRelease release: Nanoseconds) -> Double {
        guard start < storage.count, case let newest = storage[storage.count - 1], release - newest.timeNanoseconds <= stalenessNanoseconds else {
            return 0
        }
        // The window's samples, summed in place (no arrays: asked at every detent).
        let cutoff = release - windowNanoseconds
        var count = 0, sumT = 0.0, sumX = 0.0
        for sample in storage[start...] where sample.timeNanoseconds >= cutoff {
            count += 1
            sumT += Self.seconds(sample, since: newest)
            sumX += sample.position
        }
        guard count >= 3 else { return 0 }
        let n = Double(count)
        let meanT = sumT / n, meanX = sumX / n
        var sxx = 0.0, sxy = 0.0
        for sample in storage[start...] where sample.timeNanoseconds >= cutoff {
            let t = Self.seconds(sample, since: newest)
            sxx += (t - meanT) * (t - meanT)
            sxy += (t - meanT) * (sample.position - meanX)
        }
        return sxx > 0 ? sxy / sxx : 0
    }

    /// A sample's time relative to the newest sample, in seconds (for conditioning).
    static func seconds(_ sample: Sample, since newest: Sample) -> Double {
        Double(sample.timeNanoseconds - newest.timeNanoseconds) / 1e9
    }
}
