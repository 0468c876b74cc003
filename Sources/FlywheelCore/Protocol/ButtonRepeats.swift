/// Buttons that step a control, held: a step at the press, then, after ``delayNanoseconds``, one
/// every ``intervalNanoseconds`` until the release — a pair of ± volume buttons, or skip buttons on
/// the navigator (`buttons: { BTN_1: "volume+", BTN_2: "volume-" }`).
struct ButtonRepeats: Sendable {
    /// From the press to the first repeat (0.4 s: a tap is one step).
    static let delayNanoseconds: Nanoseconds = 400_000_000
    /// Between repeats (0.1 s: ten steps a second).
    static let intervalNanoseconds: Nanoseconds = 100_000_000

    struct Held: Sendable {
        var control: Control
        var direction: Int
        var dueNanoseconds: Nanoseconds
        /// Whether the action is the device's own (kept at a reload) rather than `controls.buttons`'.
        var fromDevice: Bool
    }

    /// The buttons held down that repeat.
    var held: [ButtonKey: Held] = [:]

    /// The earliest repeat due.
    var nextDeadline: Nanoseconds? {
        guard !held.isEmpty else { return nil }  // (asked at every step: no iteration without)
        return held.values.lazy.map(\.dueNanoseconds).min()
    }

    /// The held button whose repeat is due first, if by `time`.
    func due(by time: Nanoseconds) -> (ButtonKey, Held)? {
        guard let first = held.min(by: { $0.value.dueNanoseconds < $1.value.dueNanoseconds }), first.value.dueNanoseconds <= time else { return nil }
        return (first.key, first.value)
    }
}

extension DaemonCore {
    /// A step of `control` by `direction` at `time` from the button of `device`: a detent of the
    /// device's knob engine on that control, without fling or acceleration.
    mutating func buttonStep(_ control: Control, _ direction: Int, at time: Nanoseconds, device: DeviceIdentity) -> [ServerMessage] {
        Outbox.collected { knob(by: Double(direction), at: time, route: .pinned(control), device: device, inertia: false, acceleration: .off, into: $0) }
    }

    /// A stepping button pressed (a step now, repeats to come) or released (no more).
    mutating func stepButton(
        _ key: ButtonKey, _ control: Control, _ direction: Int, pressed: Bool, at time: Nanoseconds, fromDevice: Bool
    ) -> [ServerMessage] {
        guard pressed else {
            buttonRepeats.held[key] = nil
            return []
        }
        buttonRepeats.held[key] = ButtonRepeats.Held(
            control: control, direction: direction, dueNanoseconds: time + ButtonRepeats.delayNanoseconds, fromDevice: fromDevice)
        return buttonStep(control, direction, at: time, device: key.device)
    }

    /// The repeats due by `time`, each at its own time, with everything due before it first.
    mutating func advanceRepeats(to time: Nanoseconds, into outbox: Outbox) {
        while let (key, held) = buttonRepeats.due(by: time) {
            advanceControls(to: held.dueNanoseconds, into: outbox)
            buttonRepeats.held[key]?.dueNanoseconds = held.dueNanoseconds + ButtonRepeats.intervalNanoseconds
            outbox.append(contentsOf: buttonStep(held.control, held.direction, at: held.dueNanoseconds, device: key.device))
        }
    }

    /// A device went away: its held buttons stop repeating.
    mutating func forgetRepeats(of device: DeviceIdentity) {
        buttonRepeats.held = buttonRepeats.held.filter { $0.key.device != device }
    }
}
