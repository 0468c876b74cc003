/// The `hold-*` buttons held down (`hold-tempo`, `hold-scrub`, `hold-volume`, `hold-navigate`,
/// `hold-fine`), each its own, keyed by device and code, in the order they were pressed: fine
/// control lasts while any `hold-fine` button is held, and a knob that follows the mode drives the
/// control of the last pressed `hold-<control>` button still held. A hold ends at its own
/// button's release, when its device goes, or at a reload that gives the button another action.
struct ButtonHolds: Sendable {
    struct Held: Sendable {
        var key: ButtonKey
        var action: ButtonAction
        /// Whether the action is the device's own (kept at a reload) rather than `controls.buttons`'.
        var fromDevice: Bool
    }

    /// The buttons held, first pressed first.
    private(set) var held: [Held] = []
    /// The control the last pressed `hold-<control>` still held gives (read at every knob step).
    private(set) var control: Control?
    /// Whether any `hold-fine` button is held (read at every knob step).
    private(set) var fine = false

    /// `key` pressed with a hold `action` (a press already held is pressed again: it moves last).
    mutating func press(_ key: ButtonKey, _ action: ButtonAction, fromDevice: Bool) {
        held.removeAll { $0.key == key }
        held.append(Held(key: key, action: action, fromDevice: fromDevice))
        update()
    }

    /// `key` released: its hold ends (nothing when it holds nothing).
    mutating func release(_ key: ButtonKey) {
        guard held.contains(where: { $0.key == key }) else { return }
        held.removeAll { $0.key == key }
        update()
    }

    /// The holds that satisfy `isKept`, the others ended.
    func filter(_ isKept: (Held) -> Bool) -> ButtonHolds {
        var next = ButtonHolds()
        next.held = held.filter(isKept)
        next.update()
        return next
    }

    private mutating func update() {
        fine = held.contains { $0.action == .holdFine }
        control = nil
        for hold in held.reversed() {
            if case .hold(let held) = hold.action {
                control = held
                break
            }
        }
    }
}
