import FlywheelCore

extension InputTimeline {
    /// The shortest pass of a looping timeline (1 s).
    public static let minimumLoopNanoseconds: Nanoseconds = 1_000_000_000

    /// How long one pass lasts when the input loops: until its end or its latest item, and at
    /// least ``minimumLoopNanoseconds``, so a timeline of no length (one edge, or times that go
    /// backwards) repeats once a second instead of spinning.
    public var loopPeriodNanoseconds: Nanoseconds {
        max(endNanoseconds, items.map(\.timeNanoseconds).max() ?? 0, Self.minimumLoopNanoseconds)
    }
}
