/// A control a knob can drive. Its raw value is its name in the protocol and the configuration.
public enum Control: String, Sendable, Hashable, CaseIterable {
    /// The metronome's tempo (Click's circular selector).
    case tempo
    /// The scrub position in the content (Castro's scrubber).
    case scrub
    /// The playback volume, 0–100 up to a cap.
    case volume
}

/// Where a device's knob goes.
public enum KnobRoute: Sendable, Hashable {
    /// The active mode's control (a button tap advances the mode).
    case followMode
    /// Always this control.
    case pinned(Control)
    /// Nowhere: the device gives only its buttons (`role: "buttons"`).
    case none

    /// The route as the configuration names it: `mode`, a control's name, or nil for `none`.
    public var name: String {
        switch self {
        case .followMode: return "mode"
        case .pinned(let control): return control.rawValue
        case .none: return "none"
        }
    }

    /// The route named `name` (`mode`, `tempo`, `scrub`, `volume`, `none`), or nil.
    public init?(name: String) {
        switch name {
        case "mode": self = .followMode
        case "none": self = .none
        default:
            guard let control = Control(rawValue: name) else { return nil }
            self = .pinned(control)
        }
    }
}
