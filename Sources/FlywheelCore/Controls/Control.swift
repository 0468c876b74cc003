/// A control a knob can drive. Its raw value is its name in the protocol and the configuration.
public enum Control: String, Sendable, Hashable, CaseIterable {
    /// The metronome's tempo (Click's circular selector).
    case tempo
    /// The scrub position in the content (Castro's scrubber).
    case scrub
    /// The playback volume, 0–100 up to a cap.
    case volume
    /// The navigator: a detent is the next track, or the previous (no fling, no acceleration).
    case navigate
}

/// Where a device's knob goes.
public enum KnobRoute: Sendable, Hashable {
    /// The active mode's control (a button tap advances the mode).
    case followMode
    /// Always this control.
    case pinned(Control)
    /// Nowhere: the device gives only its buttons (`role: "buttons"`).
    case none
    /// The mode switch itself (`control: "switch"`): a touch strip laid out as the switch's
    /// segments, where a tap selects the segment under the finger and a pan that ends part way
    /// snaps to the nearest (DGRunkeeperSwitch's).
    case modeSwitch

    /// What a button of the device does when neither its own `buttons` nor the global ones name
    /// it: a knob pinned to one control has no mode to switch, so its press is only reported (a
    /// PowerMate on the volume does not flip a jog wheel's mode behind the user's back); every
    /// other device's tap advances the mode switch.
    package var unlistedButtonAction: ButtonAction {
        if case .pinned = self { return .none }
        return .mode
    }

    /// The route as the configuration names it: `mode`, a control's name, or nil for `none`.
    public var name: String {
        switch self {
        case .followMode: return "mode"
        case .pinned(let control): return control.rawValue
        case .none: return "none"
        case .modeSwitch: return "switch"
        }
    }

    /// The route named `name` (`mode`, `tempo`, `scrub`, `volume`, `none`, `switch`), or nil.
    public init?(name: String) {
        switch name {
        case "mode": self = .followMode
        case "none": self = .none
        case "switch": self = .modeSwitch
        default:
            guard let control = Control(rawValue: name) else { return nil }
            self = .pinned(control)
        }
    }
}
