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
    /// Where every message goes, in order, until its owner empties it.
    public let outbox: Outbox
    var lastFrame: Nanoseconds?
    var nextFrame: Nanoseconds?
    /// Each fine knob's detents counted towards its next step (`detents_per_step`).
    var stepRemainders: [DeviceIdentity: Double] = [:]

    /// A pipeline around `core`, writing into `outbox` (a new one unless given).
    public init(core: DaemonCore, outbox: Outbox = Outbox()) {
        self.core = core
        self.outbox = outbox
    }

    var framePeriod: Nanoseconds? {
        core.framesPerSecond > 0 ? Nanoseconds((1e9 / core.framesPerSecond).rounded()) : nil
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
        self.playback = playback
        outbox.append(DaemonCore.device(.added, playback.device, at: playback.startNanoseconds))
    }

    /// The next time something is due: a playback item, a control's deadline or a frame.
    public var nextDeadline: Nanoseconds? {
        // Asked at every step and every wake-up: no array on this path.
        Self.earliest(Self.earliest(playback?.nextDeadline, core.nextDeadline), nextFrame)
    }

    /// The earlier of two optional times (either when the other is nil).
    @inlinable
    public static func earliest(_ a: Nanoseconds?, _ b: Nanoseconds?) -> Nanoseconds? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Does, in time order and each at its own time, everything due by `now`. Returns
    /// ``nextDeadline`` as it is then: the loop has just worked it out, and the caller need not
    /// ask again.
    @discardableResult
    public func advance(to now: Nanoseconds) -> Nanoseconds? {
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
            } else if let input = playback?.next(dueBy: due), let device = playback?.device {
                route(input, from: device)
            } else {
                return nextDeadline  // a loop restarted: its first item is due later
            }
            scheduleFrame()
        }
    }

    /// Input from a device: everything due before it first, then the input, routed to the
    /// controls at its own time.
    public func input(_ inputs: [DeviceInput], from device: InputDevice) {
        for input in inputs {
            advance(to: max(input.timeNanoseconds, time))
            route(input, from: device)
            scheduleFrame()
        }
    }

    /// A device came or went: everything due first, then the device's message.
    public func deviceChanged(_ change: DeviceChange, _ device: InputDevice, at time: Nanoseconds) {
        if change == .removed {
            stepRemainders[device.identity] = nil
            core.forgetPresses(of: device.identity)
        }
        advance(to: max(time, self.time))
        outbox.append(DaemonCore.device(change, device, at: max(time, self.time)))
    }

    func step(to t: Nanoseconds) { time = max(time, t) }

    /// While something moves and frames are wanted, the next frame is one period after the last
    /// (or now, after a rest).
    func scheduleFrame() {
        guard wantsFrames, nextFrame == nil, let period = framePeriod, core.isMoving(at: time) else { return }
        nextFrame = max(lastFrame.map { $0 + period } ?? time, time)
    }

    /// Knob motion to the device's route (its own engine there, after its knob options), buttons
    /// to the button logic, the shuttle ring to the scrub, gaps to every client.
    func route(_ input: DeviceInput, from device: InputDevice) {
        step(to: input.timeNanoseconds)
        let t = time
        switch input.action {
        case .knob(let detents): knob(detents, touching: false, at: t, from: device)
        case .touch(let detents): knob(detents, touching: true, at: t, from: device)
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
    func knob(_ detents: Double, touching: Bool, at t: Nanoseconds, from device: InputDevice) {
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
    /// frames included when wanted, until the playback is over and the controls rest. Returns
    /// them (the outbox's included) and leaves the outbox empty.
    public func runToEnd() -> [ServerMessage] {
        precondition(playback?.loops != true, "a looping playback has no end")
        var messages = takeMessages()
        while let due = nextDeadline {
            advance(to: due)
            messages += takeMessages()
        }
        return messages
    }
}
