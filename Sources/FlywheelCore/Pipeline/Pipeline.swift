/// The one path from device input to server messages: input routed to the controls, the
/// controls' own deadlines, continuous frames while something moves, and a played timeline
/// (simulation or replay). Pure and deterministic: every step happens at its own time — an
/// input at its timestamp, a deadline at the deadline, a frame on its grid — whenever the caller
/// gets round to it, so the event loop (real time) and `flywheel replay` (virtual time) produce
/// the same messages for the same input.
public struct Pipeline: Sendable {
    /// The controls and their state.
    public var core: DaemonCore
    /// A timeline being played, if any.
    public private(set) var playback: Playback?
    /// Whether anyone wants continuous frames (the server says; the replay always does when
    /// frames are on). Without, no frame is ever scheduled.
    public var wantsFrames = false {
        didSet { if !wantsFrames { nextFrame = nil } }
    }
    /// Input times never go back for the controls (a kernel timestamp may predate the last step).
    public private(set) var time: Nanoseconds = .min
    var lastFrame: Nanoseconds?
    var nextFrame: Nanoseconds?
    /// Each fine knob's detents counted towards its next step (`detents_per_step`).
    var stepRemainders: [DeviceIdentity: Double] = [:]

    /// A pipeline around `core`.
    public init(core: DaemonCore) {
        self.core = core
    }

    var framePeriod: Nanoseconds? {
        core.framesPerSecond > 0 ? Nanoseconds((1e9 / core.framesPerSecond).rounded()) : nil
    }

    /// Starts playing a timeline at `start`: the device's `added` message, then its items as
    /// ``advance(to:)`` reaches them.
    public mutating func play(_ playback: Playback) -> [ServerMessage] {
        self.playback = playback
        return [DaemonCore.device(.added, playback.device, at: playback.startNanoseconds)]
    }

    /// The next time something is due: a playback item, a control's deadline or a frame.
    /// (Inlined: a call would copy the whole pipeline to ask it.)
    @inline(__always)
    public var nextDeadline: Nanoseconds? {
        // Asked at every step and every wake-up: no array on this path.
        Self.earliest(Self.earliest(playback?.nextDeadline, core.nextDeadline), nextFrame)
    }

    /// ``nextDeadline``, asked where the pipeline is: a caller in another module that asks the
    /// property gets a copy of the whole pipeline to ask it (the daemon asks at every wake-up).
    public mutating func nextDeadlineInPlace() -> Nanoseconds? { nextDeadline }

    /// The earlier of two optional times (either when the other is nil).
    @inlinable
    public static func earliest(_ a: Nanoseconds?, _ b: Nanoseconds?) -> Nanoseconds? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Does, in time order and each at its own time, everything due by `now`.
    public mutating func advance(to now: Nanoseconds) -> [ServerMessage] {
        let outbox = Outbox()
        advance(to: now, into: outbox)
        return outbox.messages
    }

    /// ``advance(to:)``, its messages added to `outbox` (the caller's, kept from turn to turn: the
    /// event loop's path allocates nothing for its messages). Returns ``nextDeadline`` as it is
    /// then: the loop has just worked it out, and the caller need not ask again.
    @discardableResult
    public mutating func advance(to now: Nanoseconds, into outbox: Outbox) -> Nanoseconds? {
        while true {
            // The controls' deadline asked once a turn: it is most of the search.
            let controlsDue = core.nextDeadline
            let next = Self.earliest(Self.earliest(playback?.nextDeadline, controlsDue), nextFrame)
            guard let due = next, due <= now else { return next }
            if let deadline = controlsDue, deadline == due {
                step(to: deadline)
                core.advance(to: deadline, into: outbox)
            } else if let frame = nextFrame, frame == due {
                step(to: frame)
                core.frames(at: frame, into: outbox)
                lastFrame = frame
                nextFrame = nil
            } else if let input = playback?.next(dueBy: due) {
                // The playback's device, lent to the routing unretained: the playback holds it
                // (its source is a constant the routing never reaches), so no retain and
                // release of the source and the device at every item.
                Unmanaged.passUnretained(playback.unsafelyUnwrapped.source)._withUnsafeGuaranteedRef { source in
                    route(input, from: source.device, into: outbox)
                }
            } else {
                return nextDeadline  // a loop restarted: its first item is due later
            }
            scheduleFrame()
        }
    }

    /// Input from a device: everything due before it first, then the input, routed to the
    /// controls at its own time.
    public mutating func input(_ inputs: [DeviceInput], from device: InputDevice) -> [ServerMessage] {
        let outbox = Outbox()
        input(inputs, from: device, into: outbox)
        return outbox.messages
    }

    /// ``input(_:from:)``, its messages added to `outbox`.
    public mutating func input(_ inputs: [DeviceInput], from device: InputDevice, into outbox: Outbox) {
        for input in inputs {
            advance(to: max(input.timeNanoseconds, time), into: outbox)
            route(input, from: device, into: outbox)
            scheduleFrame()
        }
    }

    /// A device came or went.
    public mutating func deviceChanged(_ change: DeviceChange, _ device: InputDevice, at time: Nanoseconds) -> [ServerMessage] {
        if change == .removed {
            stepRemainders[device.identity] = nil
            core.forgetPresses(of: device.identity)
        }
        var messages = advance(to: max(time, self.time))
        messages.append(DaemonCore.device(change, device, at: max(time, self.time)))
        return messages
    }

    mutating func step(to t: Nanoseconds) { time = max(time, t) }

    /// While something moves and frames are wanted, the next frame is one period after the last
    /// (or now, after a rest).
    mutating func scheduleFrame() {
        guard wantsFrames, nextFrame == nil, let period = framePeriod, core.isMoving(at: time) else { return }
        nextFrame = max(lastFrame.map { $0 + period } ?? time, time)
    }

    /// Knob motion to the device's route (its own engine there, after its knob options), buttons
    /// to the button logic, the shuttle ring to the scrub, gaps to every client.
    mutating func route(_ input: DeviceInput, from device: InputDevice) -> [ServerMessage] {
        let outbox = Outbox()
        route(input, from: device, into: outbox)
        return outbox.messages
    }

    /// ``route(_:from:)``, its messages added to `outbox`.
    mutating func route(_ input: DeviceInput, from device: InputDevice, into outbox: Outbox) {
        step(to: input.timeNanoseconds)
        let t = time
        switch input.action {
        case .knob(let detents): knob(detents, touching: false, at: t, from: device, into: outbox)
        case .touch(let detents): knob(detents, touching: true, at: t, from: device, into: outbox)
        case .touchDown(let position, let detents):
            outbox.append(contentsOf: core.touchDown(at: position, spanning: detents, time: t, route: device.route))
        case .lift: outbox.append(contentsOf: core.lift(at: t, route: device.route, device: device.identity))
        case .button(let code, let pressed):
            outbox.append(contentsOf: core.button(
                code, pressed: pressed, at: t, deviceActions: device.buttonActions, device: device.identity, gestures: device.buttonGestures,
                unlisted: device.route.unlistedButtonAction))
        case .shuttle(let position):
            if device.route == .none {
                core.advance(to: t, into: outbox)
            } else {
                outbox.append(contentsOf: core.shuttle(position: device.knobOptions.shuttle(position), at: t))
            }
        case .gap(let reason):
            core.advance(to: t, into: outbox)
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
        guard steps != 0 || detents == 0 || touching else { return core.advance(to: t, into: outbox) }
        core.knob(
            by: steps, at: t, touching: touching, route: device.route, device: device.identity, inertia: options.inertia, acceleration: options.acceleration,
            into: outbox)
    }

    /// Runs a played timeline to its end in virtual time (nothing else feeds it): every message,
    /// frames included when wanted, until the playback is over and the controls rest.
    public mutating func runToEnd() -> [ServerMessage] {
        precondition(playback?.loops != true, "a looping playback has no end")
        var messages: [ServerMessage] = []
        let outbox = Outbox()
        while let due = nextDeadline {
            advance(to: due, into: outbox)
            messages += outbox.messages
            outbox.removeAll()
        }
        return messages
    }
}
