/// The scrubber on a knob with feel: detents move the position by the duration-scaled
/// resolution; momentum keeps scrubbing after a flick. When it commits is a policy per input kind
/// (``ScrubCommitPolicy``): a turned knob commits once it rests and the hand has been still; a
/// touch is cancelled and rolled back when the hand let go within 0.2 s of beginning.
public struct ScrubControl: Sendable {
    /// The scrubber (duration, position, resolution, arming).
    package private(set) var scrubber: Scrubber
    /// The knobs, one engine per device (unbounded: positions are clamped by the scrubber).
    package private(set) var knobs: KnobGroup
    /// The detents the knobs have stepped in the scrub under way.
    var lastDetent = 0
    var lastRelease: Nanoseconds?
    var shuttleRate = 0.0
    var shuttleSince: Nanoseconds?
    /// The policy of a knob's turns (default: commit on rest).
    package var knobCommit: ScrubCommitPolicy = .onRest
    /// The policy of touches (default: Castro's arming).
    package var touchCommit: ScrubCommitPolicy = .armed
    /// On rest, a knob's scrub commits once the hand has been still this long (default 400 ms:
    /// more than a slow hand's time between detents, about 3 detents/s, so a slow turn is one seek).
    package var restCommitNanoseconds: Nanoseconds = 400_000_000
    var gesturePolicy: ScrubCommitPolicy?
    /// What a detent of the move under way scrubs, in the resolution (a tenth while fine).
    var fineScale = 1.0
    var lastHandInput: Nanoseconds?
    var pendingCommit: Nanoseconds?
    /// The glide home of the last cancelled scrub, for frames.
    package private(set) var rollback: RollbackGlide?
    /// The last tap hint, for frames.
    package private(set) var edgeHint: EdgeHint?

    /// Creates the control, accelerating as `acceleration` says (default off: the scrub's
    /// resolution already scales with the content).
    public init(scrubber: Scrubber = Scrubber(), parameters: FeelParameters = FeelParameters(), acceleration: AccelerationCurve = .standard(for: .scrub)) {
        self.scrubber = scrubber
        knobs = KnobGroup(parameters: parameters, bounds: .unbounded)
        knobs.acceleration = acceleration
    }

    /// The acceleration of knobs without their own, while a hand turns (default off).
    package var acceleration: AccelerationCurve {
        get { knobs.acceleration }
        set { knobs.acceleration = newValue }
    }

    /// Sets the content (a client `set`); a scrub under way carries on over the new duration.
    public mutating func set(durationSeconds: Double, positionSeconds: Double?) {
        scrubber.set(durationSeconds: durationSeconds, positionSeconds: positionSeconds)
    }

    /// The knob of `device` moved by `detents` at `time` (`inertia` false: it never flings;
    /// `acceleration`: the device's own curve, nil for the control's).
    package mutating func move(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, device: DeviceIdentity = .unnamed, inertia: Bool = true,
        acceleration: AccelerationCurve? = nil, fine: Bool = false
    ) -> [ControlEvent] {
        // Fine: a detent scrubs a tenth of the resolution, without fling or acceleration.
        fineScale = fine ? 0.1 : 1
        defer { fineScale = 1 }
        let inertia = inertia && !fine
        let acceleration = fine ? AccelerationCurve.off : acceleration
        let out = advanceCommit(to: time)
        pendingCommit = nil
        rollback = nil  // the hand takes over from the glide or the hint
        edgeHint = nil
        if scrubber.gesture == nil { gesturePolicy = touching ? touchCommit : knobCommit }
        lastHandInput = time
        var events: [KnobGroup.Event] = []
        knobs.move(device: device, by: detents, at: time, touching: touching, base: lastDetent, inertia: inertia, acceleration: acceleration, into: &events)
        return out + translate(events)
    }

    /// A touch lifted from the knob of `device`.
    package mutating func lift(at time: Nanoseconds, device: DeviceIdentity = .unnamed) -> [ControlEvent] {
        let out = advanceCommit(to: time)
        var events: [KnobGroup.Event] = []
        knobs.lift(device: device, at: time, into: &events)
        return out + translate(events)
    }

    /// Brings the control to `time`.
    public mutating func advance(to time: Nanoseconds) -> [ControlEvent] {
        guard nextDeadline != nil else { return [] }  // nothing due: no knob, commit or shuttle waits
        var events: [KnobGroup.Event] = []
        knobs.advance(to: time, into: &events)
        return translate(events) + advanceCommit(to: time) + advanceShuttle(to: time)
    }

    /// A knob's scrub commits on rest once the hand has been still for the rest delay.
    mutating func advanceCommit(to time: Nanoseconds) -> [ControlEvent] {
        guard let due = pendingCommit, time >= due else { return [] }
        pendingCommit = nil
        return emit(scrubber.commit(at: due))
    }

    /// Whether advancing changes the scrub before its ``nextDeadline``: a held shuttle ring runs it
    /// all the time (every other change waits for a deadline).
    var runsBetweenDeadlines: Bool { shuttleSince != nil }

    /// When to call ``advance(to:)`` next; nil at rest. While a shuttle ring is held: when the
    /// scrub has run one more detent at its rate.
    public var nextDeadline: Nanoseconds? {
        // Without building an array: asked at every step and wake-up.
        let earliest = Pipeline.earliest(knobs.nextDeadline, pendingCommit)
        guard let since = shuttleSince, shuttleRate != 0 else { return earliest }
        let seconds = scrubber.secondsPerDetent / abs(shuttleRate)
        return Pipeline.earliest(earliest, since + max(1_000_000, Nanoseconds(seconds * 1e9)))
    }

    /// A shuttle ring's rate (× real time; 0 at centre). Leaving centre begins a scrub; returning
    /// to it ends the scrub: committed once armed, else rolled back like a quick click.
    public mutating func shuttle(rate: Double, at time: Nanoseconds) -> [ControlEvent] {
        var out = advanceCommit(to: time) + advanceShuttle(to: time)
        pendingCommit = nil
        if rate == 0 {
            guard shuttleSince != nil else { return out }
            shuttleSince = nil
            shuttleRate = 0
            out += endGliding(at: time, from: scrubber.positionSeconds)
        } else {
            if shuttleSince == nil, scrubber.gesture == nil { out += emit(scrubber.move(byDetents: 0, at: time)) }
            shuttleSince = time
            shuttleRate = rate
        }
        return out
    }

    /// Ends a scrub under way at `time`, whatever its phase (a configuration reload): the motion
    /// stops and the scrub commits where it is once armed, else cancels, so every `began` ends.
    package mutating func end(at time: Nanoseconds) -> [ControlEvent] {
        var out = advance(to: time)
        shuttleSince = nil
        shuttleRate = 0
        lastRelease = nil
        knobs.set(detent: 0)
        lastDetent = 0
        rollback = nil
        out += emit(scrubber.end(at: time))
        return out
    }

    /// A tap on a touch strip at `time` (no scrub under way): Castro's hint that the bar scrubs —
    /// pushed `direction` (+1 towards the end), falling back and settling with the shared spring,
    /// shown by frames at an unchanged position. Its `hint` event, or nothing during a scrub.
    public mutating func hint(direction: Int, at time: Nanoseconds) -> [ControlEvent] {
        guard scrubber.gesture == nil, direction != 0 else { return [] }
        rollback = nil
        let hint = EdgeHint(at: time, direction: direction, parameters: knobs.parameters.spring)
        edgeHint = hint
        return [.hint(
            control: .scrub, direction: direction.signum(), peakDetents: abs(hint.peakOffset),
            durationSeconds: Double(hint.endNanoseconds - time) / 1e9, timeNanoseconds: time)]
    }

    /// Ends the scrub at `time` where it shows `shownSeconds`: committed once armed; cancelled
    /// otherwise, and then its frames glide home (``RollbackGlide``).
    mutating func endGliding(at time: Nanoseconds, from shownSeconds: Double) -> [ControlEvent] {
        let events = scrubber.end(at: time)
        if let cancel = events.last, cancel.phase == .cancelled, shownSeconds != cancel.originSeconds {
            rollback = RollbackGlide(
                at: time, from: shownSeconds, to: cancel.originSeconds, secondsPerDetent: scrubber.secondsPerDetent,
                parameters: knobs.parameters.spring)
        }
        return emit(events)
    }

    mutating func advanceShuttle(to time: Nanoseconds) -> [ControlEvent] {
        guard let since = shuttleSince, time > since, shuttleRate != 0 else { return [] }
        shuttleSince = time
        return emit(scrubber.shuttle(rate: shuttleRate, forNanoseconds: time - since, at: time))
    }

    func emit(_ scrubEvents: [Scrubber.Event]) -> [ControlEvent] {
        scrubEvents.map {
            .scrub(phase: $0.phase, positionSeconds: $0.positionSeconds, durationSeconds: scrubber.durationSeconds,
                   originSeconds: $0.originSeconds, timeNanoseconds: $0.timeNanoseconds)
        }
    }

    /// A frame at `time` while moving: the continuous position in seconds.
    public func frame(at time: Nanoseconds) -> ControlEvent? {
        if scrubber.gesture == nil, let glide = rollback?.offset(at: time), let rollback {
            let value = min(max(rollback.originSeconds + glide.detents * rollback.secondsPerDetent, 0), scrubber.durationSeconds)
            return .frame(control: .scrub, value: value, offset: glide.detents, velocity: glide.velocity, timeNanoseconds: time)
        }
        if scrubber.gesture == nil, let push = edgeHint?.motion(at: time) {
            return .frame(control: .scrub, value: scrubber.positionSeconds, offset: push.offset, velocity: push.velocity, timeNanoseconds: time)
        }
        guard let value = shownSeconds(at: time), let frame = knobs.frame(at: time, base: lastDetent) else { return nil }
        return .frame(control: .scrub, value: value, offset: frame.position, velocity: frame.velocity, timeNanoseconds: time)
    }

    /// The position a scrub under way shows at `time`: the scrubber's, plus the knobs' fraction
    /// of a detent beyond the last reported one.
    func shownSeconds(at time: Nanoseconds) -> Double? {
        guard let frame = knobs.frame(at: time, base: lastDetent), scrubber.gesture != nil else { return nil }
        let offset = frame.position - Double(lastDetent)
        return min(max(scrubber.positionSeconds + offset * scrubber.secondsPerDetent, 0), scrubber.durationSeconds)
    }

    static func retimed(_ event: ControlEvent, _ time: Nanoseconds) -> ControlEvent {
        guard case .scrub(let phase, let position, let duration, let origin, _) = event else { return event }
        return .scrub(phase: phase, positionSeconds: position, durationSeconds: duration, originSeconds: origin, timeNanoseconds: time)
    }

    mutating func translate(_ events: [KnobGroup.Event]) -> [ControlEvent] {
        var out: [ControlEvent] = []
        func emit(_ scrubEvents: [Scrubber.Event]) {
            for e in scrubEvents {
                out.append(.scrub(phase: e.phase, positionSeconds: e.positionSeconds, durationSeconds: scrubber.durationSeconds,
                                  originSeconds: e.originSeconds, timeNanoseconds: e.timeNanoseconds))
            }
        }
        for event in events {
            switch event {
            case .began:
                continue
            case .moved(let detents, let t):
                emit(scrubber.move(byDetents: Double(detents) * fineScale, at: t))
                lastDetent += detents
            case .released(_, let t):
                lastRelease = t
                // Armed (Castro's): a hand that let go within the arming time cancels here, as his
                // timeline collapses when the finger lifts; momentum does not scrub on, and the
                // frames glide home from where the scrub showed.
                if (gesturePolicy ?? knobCommit) == .armed, let gesture = scrubber.gesture,
                    t - gesture.startNanoseconds < scrubber.armingNanoseconds
                {
                    let shown = shownSeconds(at: t) ?? scrubber.positionSeconds
                    out += endGliding(at: t, from: shown)
                    lastRelease = nil
                    knobs.set(detent: 0)
                    lastDetent = 0
                    return out  // the rest of this batch is the momentum that no longer scrubs
                }
            case .rest(let t):
                // On rest: commit where the knob rests, once the hand has been still for the rest
                // delay. Armed (Castro's): a hand that let go within 0.2 s of beginning cancels and
                // rolls back; otherwise the scrub commits here.
                if (gesturePolicy ?? knobCommit) == .onRest {
                    if scrubber.gesture != nil { pendingCommit = max(t, (lastHandInput ?? t) + restCommitNanoseconds) }
                } else if let gesture = scrubber.gesture, let release = lastRelease,
                    release - gesture.startNanoseconds < scrubber.armingNanoseconds
                {
                    emit(scrubber.end(at: gesture.startNanoseconds))
                    out[out.count - 1] = Self.retimed(out[out.count - 1], t)
                } else {
                    emit(scrubber.end(at: t))
                }
                lastRelease = nil
                knobs.set(detent: 0)
                lastDetent = 0
            }
        }
        return out
    }
}
