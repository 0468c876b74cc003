/// Castro's scrubber on a knob: position in seconds over a client-supplied duration, with the
/// resolution scaled to the content's length, an arming delay and a rollback when not armed.
public struct Scrubber: Sendable {
    /// Phase of a scrub gesture.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        case began, moved, committed, cancelled
    }

    /// An event of the scrub control.
    public struct Event: Sendable, Hashable {
        public var phase: Phase
        /// Position in seconds after the event (the origin again when cancelled).
        package var positionSeconds: Double
        /// Where the scrub began.
        package var originSeconds: Double
        /// When, in nanoseconds.
        public var timeNanoseconds: Nanoseconds
    }

    /// Content length in seconds (≥ 0).
    package private(set) var durationSeconds: Double
    /// Current position in seconds.
    package private(set) var positionSeconds: Double
    /// Detents for a whole sweep of the content (default 200).
    package var detentsPerSweep: Double = 200
    /// Bounds of the resolution (default 0.5 s … 30 s per detent).
    package var secondsPerDetentRange: ClosedRange<Double> = 0.5...30
    /// Time after `began` at which a scrub is armed (default 0.2 s, Castro's expansion time).
    package var armingNanoseconds: Nanoseconds = 200_000_000

    /// A scrub under way: where and when it began.
    public struct Gesture: Sendable, Hashable {
        package var originSeconds: Double
        package var startNanoseconds: Nanoseconds
    }

    /// The scrub under way, if any.
    public private(set) var gesture: Gesture?

    /// Creates a scrubber.
    public init(durationSeconds: Double = 0, positionSeconds: Double = 0) {
        self.durationSeconds = max(0, durationSeconds)
        self.positionSeconds = min(max(0, positionSeconds), max(0, durationSeconds))
    }

    /// Seconds one detent moves: duration / detentsPerSweep, clamped to `secondsPerDetentRange`.
    /// A 3:34 song moves about 1 s per detent; a 43:56 podcast about 13 s.
    public var secondsPerDetent: Double {
        min(max(durationSeconds / detentsPerSweep, secondsPerDetentRange.lowerBound), secondsPerDetentRange.upperBound)
    }

    /// Sets the content (from a client); cancels nothing, clamps the position.
    public mutating func set(durationSeconds: Double, positionSeconds: Double?) {
        self.durationSeconds = max(0, durationSeconds)
        if let positionSeconds { self.positionSeconds = positionSeconds }
        self.positionSeconds = min(max(0, self.positionSeconds), self.durationSeconds)
    }

    /// The knob moved by `detents` at `time`: begins a scrub if none is under way, then moves.
    package mutating func move(byDetents detents: Double, at time: Nanoseconds) -> [Event] {
        move(byDetents: detents, at: time, beganAt: time)
    }

    mutating func move(byDetents detents: Double, at time: Nanoseconds, beganAt start: Nanoseconds) -> [Event] {
        var events: [Event] = []
        if gesture == nil {
            gesture = Gesture(originSeconds: positionSeconds, startNanoseconds: start)
            events.append(Event(phase: .began, positionSeconds: positionSeconds, originSeconds: positionSeconds, timeNanoseconds: start))
        }
        let before = positionSeconds
        positionSeconds = min(max(0, positionSeconds + detents * secondsPerDetent), durationSeconds)
        if positionSeconds != before {
            events.append(Event(phase: .moved, positionSeconds: positionSeconds, originSeconds: gesture!.originSeconds, timeNanoseconds: time))
        }
        return events
    }

    /// Scrubs as a rate (a shuttle ring): `rate` × real time for the `elapsed` nanoseconds up to
    /// `time`; a scrub that begins here began when that interval started.
    public mutating func shuttle(rate: Double, forNanoseconds elapsed: Nanoseconds, at time: Nanoseconds) -> [Event] {
        move(byDetents: rate * Double(elapsed) / 1e9 / secondsPerDetent, at: time, beganAt: time - elapsed)
    }

    /// Commits the scrub under way where it is, armed or not (a knob's deliberate turn).
    package mutating func commit(at time: Nanoseconds) -> [Event] {
        guard let gesture else { return [] }
        self.gesture = nil
        return [Event(phase: .committed, positionSeconds: positionSeconds, originSeconds: gesture.originSeconds, timeNanoseconds: time)]
    }

    /// The gesture ended (release, or the shuttle back at centre): commits when armed, else
    /// cancels and rolls back to the origin.
    package mutating func end(at time: Nanoseconds) -> [Event] {
        guard let gesture else { return [] }
        if time - gesture.startNanoseconds >= armingNanoseconds { return commit(at: time) }
        self.gesture = nil
        positionSeconds = gesture.originSeconds
        return [Event(phase: .cancelled, positionSeconds: positionSeconds, originSeconds: gesture.originSeconds, timeNanoseconds: time)]
    }
}

/// The spring-loaded shuttle ring's positions (−7…+7) as scrub rates.
package struct ShuttleRates: Sendable, Hashable {
    /// Rates for ring positions 1…7 (default 0.5, 1, 2, 4, 8, 16, 32 × real time); negative positions mirror them.
    package var rates: [Double] = [0.5, 1, 2, 4, 8, 16, 32]

    /// Creates the default table.
    package init() {}

    /// Creates a table from seven rates.
    package init(rates: [Double]) { self.rates = rates }

    /// The rate at a ring position; 0 at centre.
    package func rate(at position: Int) -> Double {
        guard position != 0, !rates.isEmpty else { return 0 }
        let index = min(abs(position), rates.count) - 1
        return position > 0 ? rates[index] : -rates[index]
    }
}

/// A cancelled scrub gliding home: Castro's snap-back (his UISnapBehavior's damping 0.35 is the
/// shared spring's), from where the scrub showed when it was cancelled to its origin, starting at
/// rest as his controls do when the finger lets go. Frames only: the position is already back.
public struct RollbackGlide: Sendable, Hashable {
    /// When the scrub was cancelled.
    package let startNanoseconds: Nanoseconds
    /// Where the scrub began (the glide's rest), in seconds.
    package let originSeconds: Double
    /// Seconds a detent.
    public let secondsPerDetent: Double
    /// The offset from the origin, in detents.
    public let spring: SpringMotion

    /// A glide from `shownSeconds` home to `originSeconds`.
    public init(at time: Nanoseconds, from shownSeconds: Double, to originSeconds: Double, secondsPerDetent: Double, parameters: SpringParameters) {
        startNanoseconds = time
        self.originSeconds = originSeconds
        self.secondsPerDetent = secondsPerDetent
        let offset = secondsPerDetent > 0 ? (shownSeconds - originSeconds) / secondsPerDetent : 0
        spring = SpringMotion(from: offset, velocity: 0, to: 0, parameters: parameters)
    }

    /// When it is home (settled within 1e-3 detent).
    public var endNanoseconds: Nanoseconds { startNanoseconds + Motion.nanoseconds(spring.settleSeconds) }

    /// The offset from the origin in detents and its velocity at `time`, or nil outside the glide.
    public func offset(at time: Nanoseconds) -> (detents: Double, velocity: Double)? {
        guard time >= startNanoseconds, time < endNanoseconds else { return nil }
        let seconds = Double(time - startNanoseconds) / 1e9
        return (spring.position(after: seconds), spring.velocity(after: seconds))
    }
}
