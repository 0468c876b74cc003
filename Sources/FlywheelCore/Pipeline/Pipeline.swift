/// The one path from device input to server messages: input routed to the controls, the
/// controls' own deadlines, continuous frames while something moves, and a played timeline
/// (simulation or replay). Pure and deterministic: every step happens at its own time — an
/// input at its timestamp, a deadline at the deadline, a frame on its grid — whenever the caller
/// gets round to it, so the event loop (real time) and `flywheel replay` (virtual time) produce
/// the same messages for the same input.
///
/// One owner: the daemon (or the replay) holds the one pipeline, which holds the controls and
/// writes every message into one sink, its ``outbox``, which the owner empties after each turn
/// (``takeMessages()`` where a copy of each is wanted).
public final class Pipeline {
    /// Where every message goes, in order, until its owner empties it.
    package let outbox: Outbox
    /// The controls, the playback and the frame grid, as one value: each step takes it once.
    private var state: PipelineState

    /// A pipeline around `core`, writing into a new outbox.
    public convenience init(core: DaemonCore) { self.init(core: core, outbox: Outbox()) }

    /// A pipeline around `core`, writing into `outbox`.
    package init(core: DaemonCore, outbox: Outbox) {
        self.outbox = outbox
        state = PipelineState(controls: core)
    }

    /// The controls and their state.
    public var core: DaemonCore {
        get { state.controls }
        // Changed where it is (a client's command, a reload): a get and a set would copy the
        // controls out and their arrays with them.
        _modify { yield &state.controls }
    }

    /// A timeline being played, if any.
    public var playback: Playback? { state.played }

    /// Whether a played timeline that does not loop has ended (its device removed).
    public var playbackIsOver: Bool { state.played?.isOver == true }

    /// What a state file keeps of the controls now (read in place: no copy of the controls).
    public func savedState(configured: TempoDial) -> SavedState { state.controls.savedState(configured: configured) }

    /// Whether anyone wants continuous frames (the server says; the replay always does when
    /// frames are on). Without, no frame is ever scheduled.
    public var wantsFrames: Bool {
        get { state.framesWanted }
        set { state.want(frames: newValue) }
    }

    /// Input times never go back for the controls (a kernel timestamp may predate the last step).
    public var time: Nanoseconds { state.stepTime }

    /// The next time something is due: a playback item, a control's deadline or a frame.
    public var nextDeadline: Nanoseconds? { state.nextDeadline }

    /// The earlier of two optional times (either when the other is nil).
    @inlinable
    public static func earliest(_ a: Nanoseconds?, _ b: Nanoseconds?) -> Nanoseconds? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// The messages written since the outbox was last emptied, each of its own; empties it.
    public func takeMessages() -> [ServerMessage] {
        let messages = outbox.messages
        outbox.removeAll()
        return messages
    }

    /// Starts playing a timeline at `start`: the device's `added` message, then its items as
    /// ``advance(to:)`` reaches them.
    public func play(_ playback: Playback) {
        state.played = playback
        outbox.append(DaemonCore.device(.added, playback.device, at: playback.startNanoseconds))
    }

    /// Does, in time order and each at its own time, everything due by `now`. Returns
    /// ``nextDeadline`` as it is then: the loop has just worked it out, and the caller need not
    /// ask again.
    @discardableResult
    public func advance(to now: Nanoseconds) -> Nanoseconds? { state.advance(to: now, into: outbox) }

    /// Input from a device: everything due before it first, then the input, routed to the
    /// controls at its own time.
    public func input(_ inputs: [DeviceInput], from device: InputDevice) { state.input(inputs, from: device, into: outbox) }

    /// A device came or went: everything due first, then the device's message.
    public func deviceChanged(_ change: DeviceChange, _ device: InputDevice, at time: Nanoseconds) {
        state.deviceChanged(change, device, at: time, into: outbox)
    }

    /// Runs a played timeline to its end in virtual time (nothing else feeds it): every message,
    /// frames included when wanted, until the playback is over (its device removed, so nothing it
    /// held repeats) and the controls rest. Returns them (the outbox's included) and leaves the
    /// outbox empty.
    public func runToEnd() -> [ServerMessage] {
        var messages: [ServerMessage] = []
        runToEnd { messages += $0 }
        return messages
    }

    /// ``runToEnd()`` handing each step's messages to `deliver` as they come (memory bounded by
    /// a step, not by the run).
    public func runToEnd(_ deliver: ([ServerMessage]) -> Void) {
        precondition(playback?.loops != true, "a looping playback has no end")
        deliver(takeMessages())
        while let due = nextDeadline {
            advance(to: due)
            deliver(takeMessages())
        }
    }
}

/// The pipeline's state and its steps, a value its ``Pipeline`` holds: a step of the pipeline
/// takes it once, and everything the step does happens in place inside it.
struct PipelineState {
    /// The controls and their state.
    var controls: DaemonCore
    /// A timeline being played, if any.
    var played: Playback?
    /// Whether anyone wants continuous frames.
    private(set) var framesWanted = false
    /// Input times never go back for the controls.
    private(set) var stepTime: Nanoseconds = .min
    private var lastFrame: Nanoseconds?
    private var nextFrame: Nanoseconds?
    /// Each fine knob's detents counted towards its next step (`detents_per_step`).
    private var stepRemainders: [DeviceIdentity: Double] = [:]

    init(controls: DaemonCore) { self.controls = controls }

    /// Frames wanted or not; without, none is scheduled.
    mutating func want(frames: Bool) {
        framesWanted = frames
        if !frames { nextFrame = nil }
    }

    /// The next time something is due: a playback item, a control's deadline or a frame.
    var nextDeadline: Nanoseconds? {
        // Asked at every step and every wake-up: no array on this path.
        Pipeline.earliest(Pipeline.earliest(played?.nextDeadline, controls.nextDeadline), nextFrame)
    }

    var framePeriod: Nanoseconds? {
        controls.framesPerSecond > 0 ? Nanoseconds((1e9 / controls.framesPerSecond).rounded()) : nil
    }

    /// Everything due by `now`, in time order and each at its own time, into `outbox`; returns
    /// ``nextDeadline`` as it is then: the loop has just worked it out, and the caller need not
    /// ask again.
    mutating func advance(to now: Nanoseconds, into outbox: Outbox) -> Nanoseconds? {
        while true {
            // The controls' deadline asked once a turn: it is most of the search.
            let controlsDue = controls.nextDeadline
            let next = Pipeline.earliest(Pipeline.earliest(played?.nextDeadline, controlsDue), nextFrame)
            guard let due = next, due <= now else { return next }
            if let deadline = controlsDue, deadline == due {
                step(to: deadline)
                controls.advance(to: deadline, into: outbox)
            } else if let frame = nextFrame, frame == due {
                step(to: frame)
                controls.frames(at: frame, into: outbox)
                lastFrame = frame
                nextFrame = nil
            } else if let input = played?.next(dueBy: due), let device = played?.device {
                route(input, from: device, into: outbox)
            } else if let end = played?.end(dueBy: due), let device = played?.device {
                // The timeline is over: its device goes, and what its buttons held ends with it.
                removed(device, at: end, into: outbox)
            } else {
                return nextDeadline  // a loop restarted: its first item is due later
            }
            scheduleFrame()
        }
    }

    /// Input from a device: everything due before it first, then the input, routed to the
    /// controls at its own time.
    mutating func input(_ inputs: [DeviceInput], from device: InputDevice, into outbox: Outbox) {
        for input in inputs {
            _ = advance(to: max(input.timeNanoseconds, stepTime), into: outbox)
            route(input, from: device, into: outbox)
            scheduleFrame()
        }
    }

    /// A device came or went: everything due first, then the device's message.
    mutating func deviceChanged(_ change: DeviceChange, _ device: InputDevice, at time: Nanoseconds, into outbox: Outbox) {
        _ = advance(to: max(time, stepTime), into: outbox)
        if change == .removed {
            removed(device, at: max(time, stepTime), into: outbox)
        } else {
            outbox.append(DaemonCore.device(change, device, at: max(time, stepTime)))
        }
    }

    /// `device` went at `time` (everything due before it done): what its buttons held ends, and
    /// its `removed` message.
    mutating func removed(_ device: InputDevice, at time: Nanoseconds, into outbox: Outbox) {
        step(to: time)
        stepRemainders[device.identity] = nil
        controls.forgetPresses(of: device.identity)
        outbox.append(DaemonCore.device(.removed, device, at: time))
    }

    mutating func step(to t: Nanoseconds) { stepTime = max(stepTime, t) }

    /// While something moves and frames are wanted, the next frame is one period after the last
    /// (or now, after a rest).
    mutating func scheduleFrame() {
        guard framesWanted, nextFrame == nil, let period = framePeriod, controls.isMoving(at: stepTime) else { return }
        nextFrame = max(lastFrame.map { $0 + period } ?? stepTime, stepTime)
    }

    /// Knob motion to the device's route (its own engine there, after its knob options), buttons
    /// to the button logic, the shuttle ring to the scrub, gaps to every client.
    mutating func route(_ input: DeviceInput, from device: InputDevice, into outbox: Outbox) {
        step(to: input.timeNanoseconds)
        let t = stepTime
        switch input.action {
        case .knob(let detents): knob(detents, touching: false, at: t, from: device, into: outbox)
        case .touch(let detents): knob(detents, touching: true, at: t, from: device, into: outbox)
        case .touchDown(let position, let detents):
            outbox.append(contentsOf: controls.touchDown(at: position, spanning: detents, time: t, route: device.route))
        case .lift: outbox.append(contentsOf: controls.lift(at: t, route: device.route, device: device.identity))
        case .button(let code, let pressed):
            outbox.append(contentsOf: controls.button(
                code, pressed: pressed, at: t, deviceActions: device.buttonActions, device: device.identity, gestures: device.buttonGestures,
                unlisted: device.route.unlistedButtonAction))
        case .shuttle(let position):
            if device.route == .none {
                controls.advance(to: t, into: outbox)
            } else {
                outbox.append(contentsOf: controls.shuttle(position: device.knobOptions.shuttle(position), at: t))
            }
        case .gap(let reason):
            controls.advance(to: t, into: outbox)
            outbox.append(DaemonCore.gap(device: device.path, reason: reason, at: t))
        }
    }

    /// A knob's motion as steps of its control (its direction and detents per step); detents
    /// that make no whole step yet only bring the controls to `t`.
    mutating func knob(_ detents: Double, touching: Bool, at t: Nanoseconds, from device: InputDevice, into outbox: Outbox) {
        let options = device.knobOptions
        var remainder = 0.0
        if options.detentsPerStep > 1 { remainder = stepRemainders[device.identity] ?? 0 }
        let steps = options.steps(detents, touching: touching, remainder: &remainder)
        if options.detentsPerStep > 1 { stepRemainders[device.identity] = remainder }
        guard steps != 0 || detents == 0 || touching else { return controls.advance(to: t, into: outbox) }
        controls.knob(
            by: steps, at: t, touching: touching, route: device.route, device: device.identity, inertia: options.inertia, acceleration: options.acceleration,
            into: outbox)
    }
}
