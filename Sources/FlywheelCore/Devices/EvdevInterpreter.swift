/// Turns one evdev device's events into ``DeviceInput``, a `SYN_REPORT` frame at a time, for the
/// knob its ``EvdevClassification`` describes. The live backend and the replay of a recording feed
/// the same interpreter, so a recording decodes exactly as the device would.
///
/// `SYN_DROPPED` (the kernel's buffer overflowed) gives one `gap`: the frame in progress and every
/// event up to the next `SYN_REPORT` are discarded, and absolute references (counters, rings, touch
/// positions) are re-taken from the next report, so lost input never becomes a jump.
public struct EvdevInterpreter: Sendable {
    /// What the device is.
    public let classification: EvdevClassification
    /// With the jog counter at 0 the device's frame for the ring's return to centre is empty and the
    /// kernel drops it; after this long without a report the ring is taken to be back at centre.
    package var shuttleSilenceNanoseconds: Nanoseconds = 1_000_000_000

    var rotary: RotaryEventDecoder?
    var frame: [InputEvent] = []
    var discarding = false
    var absoluteReference: Int?
    var touching = false
    var tracker = TouchTracker()
    var touchKnob: TouchKnob?
    var shuttlePosition = 0
    var lastShuttleReport: Nanoseconds = 0
    var lastCounter: Int32?
    var counterAtZero = false
    var buttonsDown: Set<UInt16> = []
    /// Gaps reported so far.
    package private(set) var gaps = 0

    /// Creates an interpreter for a classified device.
    public init(_ classification: EvdevClassification) {
        self.classification = classification
        rotary = Self.rotaryDecoder(classification.knob)
        if case .touch(let region)? = classification.knob { touchKnob = TouchKnob(region: region) }
    }

    /// A fresh decoder for a knob that reports counts (a rotary axis, a jog wheel, an absolute encoder).
    static func rotaryDecoder(_ knob: EvdevClassification.Knob?) -> RotaryEventDecoder? {
        switch knob {
        case .rotary(let report)?, .shuttle(let report)?: return RotaryEventDecoder(report: report)
        case .absoluteEncoder(let code, let modulus, let perDetent)?:
            return RotaryEventDecoder(report: .absoluteCounter(code: code, modulus: modulus, countsPerDetent: perDetent))
        default: return nil
        }
    }

    /// Feeds one event; returns what the frame it completes means.
    public mutating func feed(_ event: InputEvent) -> [DeviceInput] {
        if event.type == EventType.syn, event.code == SynCode.dropped {
            return drop(at: event.timeNanoseconds)
        }
        if event.type == EventType.syn, event.code == SynCode.report {
            if discarding {
                discarding = false
                frame.removeAll()
                return []
            }
            let events = frame
            frame.removeAll(keepingCapacity: true)
            return interpret(events, closedAt: event.timeNanoseconds)
        }
        if !discarding { frame.append(event) }
        return []
    }

    /// Input was lost: the backend saw `SYN_DROPPED`. Returns the `gap`; references reset.
    public mutating func drop(at time: Nanoseconds) -> [DeviceInput] {
        gaps += 1
        discarding = true
        frame.removeAll()
        absoluteReference = nil
        lastCounter = nil
        rotary = Self.rotaryDecoder(classification.knob)
        var out = [DeviceInput(.gap(reason: "SYN_DROPPED"), at: time)]
        if touching {
            touching = false
            out.append(DeviceInput(.lift, at: time))
        }
        tracker = TouchTracker()
        if let region = touchKnob?.region { touchKnob = TouchKnob(region: region) }
        return out
    }

    /// The device's axes as they are when it is opened (libevdev's values, or a recording's): an
    /// absolute encoder counts its first report from its position then, so the first step is not
    /// taken as the reference and lost.
    public mutating func start(absoluteValues: [UInt16: Int32]) {
        if case .absoluteEncoder(let code, _, _)? = classification.knob, let value = absoluteValues[code] {
            rotary?.setReference(Int(value))
        }
    }

    /// The device's state after a resynchronisation (libevdev's view after a drop): a button whose
    /// state changed during the gap is reported, an absolute encoder takes its new position as the
    /// reference; nothing moves.
    public mutating func resynchronise(buttonsDown now: Set<UInt16>, absoluteValues: [UInt16: Int32] = [:], at time: Nanoseconds) -> [DeviceInput] {
        discarding = false
        frame.removeAll()
        start(absoluteValues: absoluteValues)  // the encoder's position after the gap: the next step counts
        var out: [DeviceInput] = []
        for code in buttonsDown.subtracting(now).sorted() { out.append(DeviceInput(.button(code: code, pressed: false), at: time)) }
        for code in now.subtracting(buttonsDown).sorted() { out.append(DeviceInput(.button(code: code, pressed: true), at: time)) }
        buttonsDown = now
        return out
    }

    /// When the interpreter next needs ``expire(at:)`` (the shuttle ring's silent return), if ever.
    public var nextDeadline: Nanoseconds? {
        guard shuttlePosition != 0, counterAtZero else { return nil }
        return lastShuttleReport + shuttleSilenceNanoseconds
    }

    /// Time passed with no input.
    public mutating func expire(at time: Nanoseconds) -> [DeviceInput] {
        guard let deadline = nextDeadline, time >= deadline else { return [] }
        shuttlePosition = 0
        return [DeviceInput(.shuttle(position: 0), at: deadline)]
    }

    mutating func interpret(_ events: [InputEvent], closedAt time: Nanoseconds) -> [DeviceInput] {
        var out: [DeviceInput] = []
        // Buttons first: a press-and-turn frame presses, then turns.
        for event in events where event.type == EventType.key && event.value != 2 && event.code != KeyCode.btnTouch {
            let pressed = event.value != 0
            guard pressed != buttonsDown.contains(event.code) else { continue }
            if pressed { buttonsDown.insert(event.code) } else { buttonsDown.remove(event.code) }
            out.append(DeviceInput(.button(code: event.code, pressed: pressed), at: event.timeNanoseconds))
        }
        switch classification.knob {
        case .rotary?:
            out += rotaryFrame(events, time)
        case .shuttle?:
            if !events.contains(where: { $0.type == EventType.rel && $0.code == RelCode.dial }) {
                // Every report of a Contour device carries the jog counter, and the kernel never
                // delivers a relative value of 0: a report without REL_DIAL says the counter is 0
                // (the first such report is the reference; later, the jog moved to 0 unseen).
                out += rotaryFrame([InputEvent(timeNanoseconds: time, type: EventType.rel, code: RelCode.dial, value: 0)], time)
            }
            out += rotaryFrame(events, time)
            out += shuttleFrame(events, time)
        case .absoluteEncoder?:
            out += rotaryFrame(events, time)
        case .tabletRing(let code, let modulus, let perDetent)?:
            out += surfaceFrame(events, time, code: code) { value, last in
                var delta = (value - last) % modulus
                if delta > modulus / 2 { delta -= modulus }
                if delta < -modulus / 2 { delta += modulus }
                return Double(delta) / perDetent
            }
        case .tabletStrip(let code, let range, let detents)?:
            let span = Double(range.upperBound) - Double(range.lowerBound)
            let down = { (value: Int) in DeviceInput.Action.touchDown(position: min(max((Double(value) - Double(range.lowerBound)) / span, 0), 1), detents: detents) }
            out += surfaceFrame(events, time, code: code, down: down) { value, last in Double(value - last) / span * detents }
        case .touch?:
            for event in events {
                guard let frame = tracker.feed(event) else { continue }
                out += touchFrame(frame)
            }
            if let frame = tracker.feed(.synReport(at: time)) { out += touchFrame(frame) }
        case nil:
            break
        }
        return out
    }

    mutating func rotaryFrame(_ events: [InputEvent], _ time: Nanoseconds) -> [DeviceInput] {
        guard rotary != nil else { return [] }
        var fired = 0
        for event in events where (event.type == EventType.rel || event.type == EventType.abs)
            && !(isShuttle && (event.code == RelCode.wheel || event.code == RelCode.wheelHiRes)) {
            fired += rotary!.feed(event)
        }
        fired += rotary!.feed(.synReport(at: time))
        return fired == 0 ? [] : [DeviceInput(.knob(detents: Double(fired)), at: time)]
    }

    var isShuttle: Bool { if case .shuttle? = classification.knob { return true } else { return false } }

    /// The ring reports REL_WHEEL −7…+7; a report without it (every report repeats the jog counter)
    /// means the ring is back at centre, which the kernel never sends as a zero.
    mutating func shuttleFrame(_ events: [InputEvent], _ time: Nanoseconds) -> [DeviceInput] {
        let wheel = events.last { $0.type == EventType.rel && $0.code == RelCode.wheel }
        let counter = events.last { $0.type == EventType.rel && $0.code == RelCode.dial }
        if let counter {
            lastCounter = counter.value
            counterAtZero = false
        } else if wheel != nil, lastCounter != nil {
            counterAtZero = true  // a report without the counter: the kernel dropped a zero
        }
        var position = shuttlePosition
        if let wheel {
            position = max(-7, min(7, Int(wheel.value)))
            lastShuttleReport = time
        } else if counter != nil {
            position = 0
        }
        guard position != shuttlePosition else { return [] }
        shuttlePosition = position
        return [DeviceInput(.shuttle(position: position), at: time)]
    }

    /// A ring or strip under a finger: motion while ABS_MISC is non-zero, `lift` when it returns to
    /// 0; the first value after a touch-down is the reference.
    /// A strip says where the finger came down (`down`).
    mutating func surfaceFrame(
        _ events: [InputEvent], _ time: Nanoseconds, code: UInt16, down: ((Int) -> DeviceInput.Action)? = nil, delta: (Int, Int) -> Double
    ) -> [DeviceInput] {
        var out: [DeviceInput] = []
        if let misc = events.last(where: { $0.type == EventType.abs && $0.code == AbsCode.misc }), misc.value == 0 {
            absoluteReference = nil
            if touching {
                touching = false
                out.append(DeviceInput(.lift, at: time))
            }
            return out
        }
        guard let event = events.last(where: { $0.type == EventType.abs && $0.code == code }) else { return out }
        let value = Int(event.value)
        defer { absoluteReference = value }
        guard let last = absoluteReference else {
            touching = true
            if let down { out.append(DeviceInput(down(value), at: time)) }
            return out
        }
        let detents = delta(value, last)
        if detents != 0 { out.append(DeviceInput(.touch(detents: detents), at: time)) }
        return out
    }

    mutating func touchFrame(_ frame: TouchTracker.Frame) -> [DeviceInput] {
        // A strip says where the finger came down (a tap's place, the mode switch's segment).
        var down: [DeviceInput] = []
        if case .contact(let x, let y, true, let time) = frame, let strip = touchKnob?.stripPosition(x: x, y: y) {
            down = [DeviceInput(.touchDown(position: strip.position, detents: strip.detents), at: time)]
        }
        guard touchKnob != nil, let motion = touchKnob!.feed(frame) else {
            if case .contact = frame { touching = true }
            return down
        }
        switch motion {
        case .move(let detents, let time):
            touching = true
            return down + [DeviceInput(.touch(detents: detents), at: time)]
        case .lift(let time):
            touching = false
            return [DeviceInput(.lift, at: time)]
        }
    }
}
