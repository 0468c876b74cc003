/// A button's long and double presses, beside its press action (a device's `buttons` entry
/// `{ press: …, long: …, double: … }`). A button with either is recognised on release:
/// - held 0.5 s or more: a `long-press`, and the `long` action (nothing when there is none);
/// - shorter, on a button with a `double` action: a second press within 0.3 s of the release is a
///   `double-press` and the `double` action; otherwise, 0.3 s after the release, a `tap` and the
///   press action (the wait is what lets a double press not also do the single one);
/// - shorter, without a `double` action: a `tap` and the press action at once.
/// The actions are `mode`, `tap` (a tap of the tap-tempo) or `none` (only reported, for a bridge).
public struct ButtonGestures: Sendable, Hashable {
    /// What a long press does; nil: only reported.
    package var long: ButtonAction?
    /// What a double press does; nil: no double press (a tap acts at once).
    public var double: ButtonAction?

    /// A button's gestures.
    public init(long: ButtonAction? = nil, double: ButtonAction? = nil) {
        self.long = long
        self.double = double
    }

    /// A second press within this time of a tap's release is a double press (0.3 s).
    package static let doublePressNanoseconds: Nanoseconds = 300_000_000
}

/// One device's button.
struct ButtonKey: Sendable, Hashable {
    var device: DeviceIdentity
    var code: UInt16
}

/// The presses under way of buttons with gestures: when each went down, and the taps waiting to
/// see whether a second press makes them a double press.
struct ButtonPresses: Sendable {
    struct Waiting: Sendable {
        var key: ButtonKey
        var dueNanoseconds: Nanoseconds
        var action: ButtonAction
    }

    /// Buttons held down: since when, and whether the press is a double press's second.
    var down: [ButtonKey: (since: Nanoseconds, second: Bool)] = [:]
    /// Taps waiting for the double-press time to pass, in the order they were released.
    var waiting: [Waiting] = []

    /// The earliest waiting tap's due time.
    var nextDeadline: Nanoseconds? {
        guard !waiting.isEmpty else { return nil }  // (asked at every step: no iteration without)
        var earliest: Nanoseconds?
        for tap in waiting { earliest = min(earliest ?? tap.dueNanoseconds, tap.dueNanoseconds) }
        return earliest
    }
}

extension DaemonCore {
    /// A button with long or double presses (see ``ButtonGestures``).
    mutating func gestureButton(
        _ key: ButtonKey, pressed: Bool, at time: Nanoseconds, press: ButtonAction, gestures: ButtonGestures
    ) -> [ServerMessage] {
        var messages = Outbox.collected { advance(to: time, into: $0) }
        func say(_ action: ButtonEventAction) {
            messages.append(ServerMessage(.button(code: key.code, action: action), at: time))
        }
        say(pressed ? .press : .release)
        if pressed {
            if let index = buttonPresses.waiting.firstIndex(where: { $0.key == key }) {
                buttonPresses.waiting.remove(at: index)
                buttonPresses.down[key] = (time, true)
                say(.doublePress)
                messages += perform(gestures.double ?? ButtonAction.none, at: time)
            } else {
                buttonPresses.down[key] = (time, false)
            }
            return messages
        }
        guard let down = buttonPresses.down.removeValue(forKey: key), !down.second else { return messages }
        if time - down.since >= Self.longPressNanoseconds {
            say(.longPress)
            messages += perform(gestures.long ?? ButtonAction.none, at: time)
        } else if gestures.double != nil {
            buttonPresses.waiting.append(.init(key: key, dueNanoseconds: time + ButtonGestures.doublePressNanoseconds, action: press))
        } else {
            say(.tap)
            messages += perform(press, at: time)
        }
        return messages
    }

    /// A device went away: its buttons held down are forgotten (their release never comes): its
    /// holds end and its repeats stop; taps already made still act when their double-press time
    /// has passed.
    package mutating func forgetPresses(of device: DeviceIdentity) {
        buttonPresses.down = buttonPresses.down.filter { $0.key.device != device }
        holds = holds.filter { $0.key.device != device }
        forgetRepeats(of: device)
    }

    /// The taps whose double-press time has passed by `time`, each at its due time, merged in time
    /// order with the controls' `events`.
    mutating func advanceButtons(to time: Nanoseconds, after events: [ControlEvent]) -> [ServerMessage] {
        var messages: [ServerMessage] = []
        var events = events[...]
        while let index = buttonPresses.waiting.indices.min(by: { buttonPresses.waiting[$0].dueNanoseconds < buttonPresses.waiting[$1].dueNanoseconds }),
            buttonPresses.waiting[index].dueNanoseconds <= time
        {
            let tap = buttonPresses.waiting.remove(at: index)
            while let event = events.first, event.timeNanoseconds <= tap.dueNanoseconds {
                messages.append(ServerMessage(event))
                events = events.dropFirst()
            }
            messages.append(ServerMessage(.button(code: tap.key.code, action: .tap), at: tap.dueNanoseconds))
            messages += perform(tap.action, at: tap.dueNanoseconds)
        }
        return messages + events.map(ServerMessage.init)
    }

    /// What a recognised press does at `time`: advance the mode, tap the tempo, or nothing.
    mutating func perform(_ action: ButtonAction, at time: Nanoseconds) -> [ServerMessage] {
        switch action {
        case .mode: return [tapMode(at: time)]
        case .tap: return handle(.tap, at: time).broadcast
        case .hold, .holdFine, .step, .none: return []
        }
    }
}
