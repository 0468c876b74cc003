/// What a button does.
public enum ButtonAction: Sendable, Hashable {
    /// A tap advances the mode switch (the default, except on a device whose knob is pinned to
    /// one control: see ``KnobRoute/unlistedButtonAction``).
    case mode
    /// Each press is a tap of the tap-tempo.
    case tap
    /// Press-and-turn: while held, the knob drives this control.
    case hold(Control)
    /// A step of the control (+1 or −1) at the press, repeated while held (`volume+`, `volume-`).
    case step(Control, Int)
    /// Fine control while held: a detent of any knob is a tenth of a step (the tempo 0.1 BPM, the
    /// scrub a tenth of its resolution, the volume 1 %), with no fling and no acceleration.
    case holdFine
    /// Nothing in the daemon: the button is only reported (for a bridge that gives it a job, such
    /// as the MPD bridge's pause, so it does not also switch the mode).
    case none
}

extension ButtonAction {
    /// Whether it lasts as long as the press (`hold-*`).
    package var isHold: Bool {
        switch self {
        case .hold, .holdFine, .step: return true
        case .mode, .tap, .none: return false
        }
    }
}

/// The daemon's state and behaviour without any I/O: the controls, the mode switch and tap
/// tempo; knob input routed by the active mode; client commands answered; every outgoing message
/// built once. Time is always a parameter, so tests drive it in virtual time.
public struct DaemonCore: Sendable {
    /// The protocol version.
    public static let protocolVersion = 1
    /// The protocol's minor version, in `hello` as `minor`: 1 since tempos are carried to a tenth
    /// (`"bpm":92.5`); a client that parses a whole `bpm` must take a decimal.
    public static let protocolMinorVersion = 1

    public internal(set) var tempo: TempoControl
    public private(set) var scrub: ScrubControl
    public internal(set) var volume: VolumeControl
    public internal(set) var mode: ModeSwitch
    var tapTempo = TapTempo()
    let parameters: FeelParameters
    /// Continuous frames per second while in motion (0: none).
    public var framesPerSecond: Double
    /// Scrub rates for a shuttle ring's positions.
    package var shuttleRates = ShuttleRates()
    /// What each button does (by key code); unlisted buttons switch the mode on a tap.
    public var buttonActions: [UInt16: ButtonAction] = [:]
    /// The `hold-*` buttons held down, each its own (by device and code).
    var holds = ButtonHolds()
    /// The control the last pressed `hold-<control>` button still held gives the knob.
    var heldControl: Control? { holds.control }
    /// The navigator: detents are tracks.
    package private(set) var navigate = NavigateControl()
    /// Buttons that step a control, held down.
    var buttonRepeats = ButtonRepeats()
    /// Whether a `hold-fine` button is held (any of them): knobs move finely.
    package var fineHeld: Bool { holds.fine }
    /// A finger on a touch strip, from its touch-down to its lift.
    var strip: StripTouch?
    /// The mode switch's pan and snap, for frames.
    package private(set) var switchMotion = SwitchMotion()

    /// Creates the core.
    public init(
        parameters: FeelParameters = FeelParameters(), tempoDial: TempoDial = TempoDial(), bpm: Double = 120,
        scrubber: Scrubber = Scrubber(), modes: [Control] = [.tempo, .scrub], framesPerSecond: Double = 60,
        volumeDial: VolumeDial = VolumeDial(), volume: Double = 30
    ) {
        self.parameters = parameters
        tempo = TempoControl(dial: tempoDial, bpm: bpm, parameters: parameters)
        scrub = ScrubControl(scrubber: scrubber, parameters: parameters)
        self.volume = VolumeControl(dial: volumeDial, volume: volume, parameters: parameters)
        mode = ModeSwitch(segments: modes.isEmpty ? [.tempo] : modes)
        self.framesPerSecond = framesPerSecond
    }

    // MARK: Input

    /// The control a knob on `route` drives now: a pinned control, or the active mode's (or a
    /// held `hold-*` button's); nil for a device that gives only buttons.
    public func control(for route: KnobRoute) -> Control? {
        switch route {
        case .followMode: return heldControl ?? mode.active
        case .pinned(let control): return control
        case .none, .modeSwitch: return nil
        }
    }

    /// A finger came down at `position` (0…1) along a strip of `detents` detents: on a strip
    /// routed to the mode switch, the selection follows it.
    package mutating func touchDown(at position: Double, spanning detents: Double, time: Nanoseconds, route: KnobRoute = .followMode) -> [ServerMessage] {
        let messages = Outbox.collected { advance(to: time, into: $0) }
        strip = StripTouch(at: position, detents: detents, time: time)
        if route == .modeSwitch {
            mode.pan(to: mode.offset(under: position))
            switchMotion.panned(to: mode.offset, at: time)
        }
        return messages
    }

    /// The knob of `device` turned by `detents` at `time`, its messages added to `outbox`: goes to
    /// the control `route` selects, to that device's own engine there (`inertia` false: it never
    /// flings; `acceleration`: the device's own curve, nil for the control's).
    package mutating func knob(
        by detents: Double, at time: Nanoseconds, touching: Bool = false, route: KnobRoute = .followMode,
        device: DeviceIdentity = .unnamed, inertia: Bool = true, acceleration: AccelerationCurve? = nil, into outbox: Outbox
    ) {
        var (events, start) = controlEvents.take()
        // Brought to `time` only when that changes something (a pipeline has done it already).
        if changesWhenAdvanced(to: time) { advanceEvents(to: time, into: &events) }
        if touching, strip != nil {
            strip!.move(by: detents)
            if route == .modeSwitch {
                mode.pan(to: mode.offset(under: strip!.position))
                switchMotion.panned(to: mode.offset, at: time)
            }
        }
        switch control(for: route) {
        case .scrub:
            events.append(contentsOf: scrub.move(
                by: detents, at: time, touching: touching, device: device, inertia: inertia, acceleration: acceleration, fine: fineHeld))
        case .tempo:
            tempo.move(by: detents, at: time, touching: touching, device: device, inertia: inertia, acceleration: acceleration, fine: fineHeld, into: &events)
        case .volume:
            volume.move(by: detents, at: time, touching: touching, device: device, inertia: inertia, acceleration: acceleration, fine: fineHeld, into: &events)
        case .navigate: events.append(contentsOf: navigate.move(by: detents, at: time, device: device))
        case nil: break
        }
        for position in start..<events.count { outbox.append(events[position]) }
        controlEvents.giveBack(&events)
    }

    /// Whether bringing the controls to `time` changes anything: something is due by then, or the
    /// scrub runs between its deadlines (a held shuttle ring).
    func changesWhenAdvanced(to time: Nanoseconds) -> Bool {
        scrub.runsBetweenDeadlines || nextDeadline.map { $0 <= time } ?? false
    }

    /// The controls' events of one turn (taken out while the controls append to it).
    var controlEvents = TurnBuffer<ControlEvent>()

    /// A touch lifted from the knob region of `device`. On a strip routed to the mode switch the
    /// selection snaps to the nearest segment; a tap on a strip driving the scrub gives Castro's hint.
    package mutating func lift(at time: Nanoseconds, route: KnobRoute = .followMode, device: DeviceIdentity = .unnamed) -> [ServerMessage] {
        var events = collected { advanceEvents(to: time, into: &$0) }
        let touch = strip
        strip = nil
        if route == .modeSwitch {
            if touch != nil {
                let changed = mode.endPan()
                // The snap onto the segment, with the feel's spring, carrying the pan's velocity.
                switchMotion.lifted(from: mode.offset, onto: mode.index, at: time, spring: parameters.spring)
                if let changed { events.append(.mode(changed, timeNanoseconds: time)) }
            }
            return events.map(ServerMessage.init)
        }
        switch control(for: route) {
        case .scrub: events += scrub.lift(at: time, device: device)
        case .tempo: tempo.lift(at: time, device: device, into: &events)
        case .volume: volume.lift(at: time, device: device, into: &events)
        case .navigate: navigate.lift(device: device)
        case nil: break
        }
        if let touch, touch.isTap(liftedAt: time), control(for: route) == .scrub {
            events += scrub.hint(direction: touch.hintDirection, at: time)
        }
        return events.map(ServerMessage.init)
    }

    /// A button: `press` and `release` messages, then `tap` (a release within 0.5 s, which
    /// advances the mode switch) or `long-press`. `deviceActions` are the pressing device's own
    /// (its configured `buttons`), which come before the global ones; a button neither lists does
    /// `unlisted` (the pressing device's ``KnobRoute/unlistedButtonAction``).
    public mutating func button(
        _ code: UInt16, pressed: Bool, at time: Nanoseconds, deviceActions: [UInt16: ButtonAction] = [:],
        device: DeviceIdentity = .unnamed, gestures: [UInt16: ButtonGestures] = [:], unlisted: ButtonAction = .mode
    ) -> [ServerMessage] {
        if let gestures = gestures[code] {
            return gestureButton(
                ButtonKey(device: device, code: code), pressed: pressed, at: time, press: deviceActions[code] ?? buttonActions[code] ?? unlisted,
                gestures: gestures)
        }
        var messages = Outbox.collected { advance(to: time, into: $0) }
        func say(_ action: ButtonEventAction) {
            messages.append(ServerMessage(.button(code: code, action: action), at: time))
        }
        say(pressed ? .press : .release)
        let action = deviceActions[code] ?? buttonActions[code] ?? unlisted
        switch action {
        case .mode, .none:
            break  // `none` is still recognised (tap, long press) for a bridge that acts on it
        case .tap:
            // Each press is a tap of the tap-tempo (the release means nothing).
            if pressed { messages += handle(.tap, at: time).broadcast }
            return messages
        case .hold, .holdFine:
            // Press-and-turn (while held, a knob that follows the mode drives the control) or
            // push-and-turn fine (every knob moves a tenth of a step a detent): this button's own
            // hold, until its own release or its device's removal.
            let key = ButtonKey(device: device, code: code)
            if pressed {
                holds.press(key, action, fromDevice: deviceActions[code] != nil)
            } else {
                holds.release(key)
            }
            return messages
        case .step(let control, let direction):
            return messages
                + stepButton(ButtonKey(device: device, code: code), control, direction, pressed: pressed, at: time, fromDevice: deviceActions[code] != nil)
        }
        if pressed {
            pressedAt[code] = time
        } else if let start = pressedAt.removeValue(forKey: code) {
            if time - start < Self.longPressNanoseconds {
                say(.tap)
                if case .mode = action { messages.append(ServerMessage(ControlEvent.mode(mode.tap(), timeNanoseconds: time))) }
            } else {
                say(.longPress)
            }
        }
        return messages
    }

    /// A press held this long is a long press, not a tap (0.5 s).
    package static let longPressNanoseconds: Nanoseconds = 500_000_000
    var pressedAt: [UInt16: Nanoseconds] = [:]
    /// Buttons with long or double presses, per device.
    var buttonPresses = ButtonPresses()

    /// A shuttle ring moved to `position` (−7…+7): the scrub runs at that position's rate until the
    /// ring returns to centre, which ends the scrub (committed once armed, like a knob's).
    public mutating func shuttle(position: Int, at time: Nanoseconds) -> [ServerMessage] {
        var events = collected { advanceEvents(to: time, into: &$0) }
        events += scrub.shuttle(rate: shuttleRates.rate(at: position), at: time)
        return events.map(ServerMessage.init)
    }

    /// A `gap` message: input from `device` was lost (`reason`); counting resumed after it.
    package static func gap(device: String, reason: String, at time: Nanoseconds) -> ServerMessage {
        ServerMessage(.gap(devicePath: device, reason: reason), at: time)
    }

    /// Brings every control to `time`, and a button's press whose double press did not come;
    /// the messages are added to `outbox`.
    package mutating func advance(to time: Nanoseconds, into outbox: Outbox) {
        if buttonRepeats.nextDeadline != nil { advanceRepeats(to: time, into: outbox) }
        advanceControls(to: time, into: outbox)
    }

    /// ``advance(to:into:)`` but the held buttons' repeats.
    mutating func advanceControls(to time: Nanoseconds, into outbox: Outbox) {
        var (events, start) = controlEvents.take()
        advanceEvents(to: time, into: &events)
        if let due = buttonPresses.nextDeadline, due <= time {
            outbox.append(contentsOf: advanceButtons(to: time, after: Array(events[start...])))
        } else {
            for position in start..<events.count { outbox.append(events[position]) }
        }
        controlEvents.giveBack(&events)
    }

    /// A tap of the mode switch at `time`: the `mode` message.
    mutating func tapMode(at time: Nanoseconds) -> ServerMessage {
        ServerMessage(ControlEvent.mode(mode.tap(), timeNanoseconds: time))
    }

    /// The controls' events up to `time`, appended to `events`.
    mutating func advanceEvents(to time: Nanoseconds, into events: inout [ControlEvent]) {
        tempo.advance(to: time, into: &events)
        if scrub.nextDeadline != nil { events.append(contentsOf: scrub.advance(to: time)) }  // (an empty array appended costs a call)
        volume.advance(to: time, into: &events)
    }

    /// The next time a control needs ``advance(to:into:)``; nil when everything rests.
    public var nextDeadline: Nanoseconds? {
        // Without building an array: asked at every step and wake-up.
        Pipeline.earliest(
            Pipeline.earliest(Pipeline.earliest(Pipeline.earliest(tempo.nextDeadline, scrub.nextDeadline), volume.nextDeadline), buttonPresses.nextDeadline),
            buttonRepeats.nextDeadline)
    }

    /// Frames of the controls in motion at `time`, added to `outbox`.
    package func frames(at time: Nanoseconds, into outbox: Outbox) {
        if let frame = tempo.frame(at: time) { outbox.append(frame) }
        if let frame = scrub.frame(at: time) { outbox.append(frame) }
        if let frame = volume.frame(at: time) { outbox.append(frame) }
        if let frame = switchMotion.frame(at: time, active: mode.index) { outbox.append(frame) }
    }

    /// Whether any control is moving (frames are due).
    package func isMoving(at time: Nanoseconds) -> Bool {
        tempo.frame(at: time) != nil || scrub.frame(at: time) != nil || volume.frame(at: time) != nil || switchMotion.isMoving(at: time)
    }

    /// Makes `control` the active mode, adding nothing to the segments; false when it is not one.
    public mutating func selectMode(_ control: Control) -> Bool { mode.select(control) }

    // MARK: Commands

    /// Answers a client's command at `time`: the reply to that client and messages for everyone.
    public mutating func handle(_ command: ClientCommand, at time: Nanoseconds) -> (reply: ServerMessage, broadcast: [ServerMessage]) {
        switch command {
        case .ping:
            return (ServerMessage(.pong, at: time), [])
        case .get:
            return (state(at: time), [])
        case .watch(let subscription):
            return (ServerMessage(.watch(subscription), at: time), [])
        case .setTempo(let bpm, let range, let table):
            let newRange = range ?? tempo.dial.range, newTable = table ?? tempo.dial.table
            // The configuration's rule: the table must have a value within the range.
            if let problem = TempoRules.tableProblem(newTable, in: newRange) {
                return (Self.error(.outOfRange, "\"table\" \"\(newTable.rawValue)\" \(problem).", at: time), [])
            }
            let dial = TempoDial(range: newRange, table: newTable, bounds: tempo.dial.bounds, resolution: tempo.dial.resolution)
            let target = bpm ?? tempo.bpm.value
            // Compared as doubles, to the tenth the dial keeps: a huge number must be refused, not
            // converted (that would trap).
            if let bpm, !(Double(dial.range.lowerBound)...Double(dial.range.upperBound)).contains((bpm * 10).rounded() / 10) {
                return (Self.error(.outOfRange, "\"bpm\" must be within \(dial.range.lowerBound)–\(dial.range.upperBound), not \(JSONValue.double(bpm).encoded()).", at: time), [])
            }
            tempo = TempoControl(dial: dial, bpm: target, parameters: parameters, acceleration: tempo.knob.acceleration)
            let event = ControlEvent.tempo(bpm: tempo.bpm, value: tempo.detent, phase: .set, timeNanoseconds: time)
            return (state(at: time), [ServerMessage(event)])
        case .setScrub(let duration, let position):
            let newDuration = duration ?? scrub.scrubber.durationSeconds
            if let position, position > newDuration {
                return (Self.error(.outOfRange, "\"position\" \(JSONValue.double(position).encoded()) is past the duration \(JSONValue.double(newDuration).encoded()).", at: time), [])
            }
            scrub.set(durationSeconds: newDuration, positionSeconds: position)
            return (state(at: time), [])
        case .setVolume(let level):
            // Compared as doubles: a huge number must be refused, not converted.
            guard (0...Double(volume.dial.cap)).contains(level.rounded()) else {
                return (Self.error(.outOfRange, "\"volume\" must be within 0–\(volume.dial.cap), not \(JSONValue.double(level).encoded()).", at: time), [])
            }
            volume.set(volume: level)
            return (state(at: time), [ServerMessage(ControlEvent.volume(volume: volume.volume, phase: .set, timeNanoseconds: time))])
        case .setMode(let name):
            let before = mode.active
            guard let control = Control(rawValue: name), mode.select(control) else {
                let names = mode.segments.map(\.rawValue).joined(separator: ", ")
                return (Self.error(.outOfRange, "There is no mode \"\(Excerpt.of(name))\"; the modes are \(names).", at: time), [])
            }
            let changed = before != mode.active
            return (state(at: time), changed ? [ServerMessage(ControlEvent.mode(control, timeNanoseconds: time))] : [])
        case .tap:
            // The tapped tempo, within the dial's range (taps 1 µs apart are 60 million BPM).
            let range = tempo.dial.range
            let bpm = tapTempo.tap(at: time).map { min(max($0, Double(range.lowerBound)), Double(range.upperBound)) }
            var broadcast: [ServerMessage] = []
            if let bpm {
                tempo.set(bpm: bpm, onTable: true)  // a tapped tempo lands on the dial's own values
                broadcast.append(ServerMessage(ControlEvent.tempo(bpm: tempo.bpm, value: tempo.detent, phase: .tap, timeNanoseconds: time)))
            }
            let reply = ServerMessage(.tap(bpm: bpm), at: time)
            return (reply, broadcast)
        }
    }

    /// An `error` message.
    public static func error(_ code: ErrorCode, _ message: String, at time: Nanoseconds) -> ServerMessage {
        ServerMessage(.error(code, message: message), at: time)
    }

    /// A `device` message: `added` or `removed`, with the device's name, path and kind.
    public static func device(_ change: DeviceChange, _ device: InputDevice, at time: Nanoseconds) -> ServerMessage {
        ServerMessage(.device(change, device), at: time)
    }

    /// The `hello` banner.
    public func hello(version: String, devices: [InputDevice], at time: Nanoseconds) -> ServerMessage {
        ServerMessage(.hello(version: version, devices: devices), at: time)
    }

    /// The controls' state now.
    public var currentState: DaemonState {
        DaemonState(
            tempoBPM: tempo.bpm, tempoValue: tempo.detent, tempoDial: tempo.dial,
            scrubDurationSeconds: scrub.scrubber.durationSeconds, scrubPositionSeconds: scrub.scrubber.positionSeconds,
            scrubSecondsPerDetent: scrub.scrubber.secondsPerDetent, scrubActive: scrub.scrubber.gesture != nil,
            volume: volume.volume, volumeCap: volume.dial.cap, volumeStep: volume.dial.step, volumeBounds: volume.dial.bounds,
            mode: mode.active, modes: mode.segments)
    }

    /// The `state` answer.
    public func state(at time: Nanoseconds) -> ServerMessage {
        ServerMessage(.state(currentState), at: time)
    }
}

extension DaemonCore {
    /// A core set up from a configuration.
    public init(configuration: FlywheelConfiguration, scrubDurationSeconds: Double = 0) {
        self.init(
            parameters: configuration.feel, tempoDial: configuration.tempoDial, bpm: configuration.bpm,
            scrubber: configuration.scrubber(durationSeconds: scrubDurationSeconds), modes: configuration.modes,
            framesPerSecond: configuration.framesPerSecond, volumeDial: configuration.volumeDial, volume: configuration.volume)
        _ = mode.select(configuration.initialMode)
        tempo.knob.acceleration = configuration.acceleration(for: .tempo)
        volume.knob.acceleration = configuration.acceleration(for: .volume)
        scrub.acceleration = configuration.acceleration(for: .scrub)
        shuttleRates = configuration.shuttleRates
        buttonActions = configuration.buttonActions
        if let policy = configuration.scrubCommit {
            scrub.knobCommit = policy
            scrub.touchCommit = policy
        }
    }

    /// The same daemon under a reloaded configuration: the tempo, the volume, the scrub content and
    /// position and the active mode are kept (clamped to the new ranges), and a client's tempo range
    /// and table while `previousDial`, the configuration's before, is the new one's; motion in
    /// progress stops.
    package func reconfigured(with configuration: FlywheelConfiguration, previousDial: TempoDial? = nil) -> DaemonCore {
        var next = DaemonCore(configuration: configuration, scrubDurationSeconds: scrub.scrubber.durationSeconds)
        // A client's own range or table stays while the configuration's dial is the one it replaced
        // (as a restart restores it); a changed configuration's dial replaces it.
        if let previousDial, previousDial == configuration.tempoDial, tempo.dial != previousDial {
            next.tempo = TempoControl(dial: tempo.dial, bpm: tempo.bpm.value, parameters: next.parameters, acceleration: next.tempo.knob.acceleration)
        }
        next.tempo.set(bpm: tempo.bpm.value)
        // To the percent: fine control (or a restored volume) may leave it between steps.
        next.volume.set(volume: Double(min(volume.volume, next.volume.dial.cap)), exact: true)
        next.scrub.set(durationSeconds: scrub.scrubber.durationSeconds, positionSeconds: scrub.scrubber.positionSeconds)
        _ = next.mode.select(mode.active)
        // A held button goes on holding or repeating only while the new settings give it the same
        // action (a device's own buttons change only at a restart); its release ends it as before.
        func kept(_ code: UInt16, _ action: ButtonAction, fromDevice: Bool) -> Bool {
            fromDevice || configuration.buttonActions[code] == action
        }
        next.holds = holds.filter { kept($0.key.code, $0.action, fromDevice: $0.fromDevice) }
        next.buttonRepeats.held = buttonRepeats.held.filter { kept($0.key.code, .step($0.value.control, $0.value.direction), fromDevice: $0.value.fromDevice) }
        return next
    }

    /// The daemon under a reloaded configuration at `time`, and the messages that end what was
    /// under way: a scrub in progress commits (once armed) or cancels, a turning tempo knob
    /// settles where it is, so no client is left with a `began` that never ends.
    public func reloaded(
        with configuration: FlywheelConfiguration, at time: Nanoseconds, previousDial: TempoDial? = nil
    ) -> (core: DaemonCore, messages: [ServerMessage]) {
        var current = self
        var events = collected { current.advanceEvents(to: time, into: &$0) }
        events += current.scrub.end(at: time)
        if current.tempo.knob.nextDeadline != nil {  // turning, coasting or about to rest
            events.append(.tempo(bpm: current.tempo.bpm, value: current.tempo.detent, phase: .settled, timeNanoseconds: time))
        }
        return (current.reconfigured(with: configuration, previousDial: previousDial), events.map(ServerMessage.init))
    }
}
