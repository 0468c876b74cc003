/// A configured device's role (`role`).
package enum DeviceRole: String, Sendable, Hashable, CaseIterable {
    /// Its rotation drives a control (and its keys are buttons).
    case knob
    /// Only its keys are used.
    case buttons
}

/// A configured device's light (`led`).
public enum DeviceLight: String, Sendable, Hashable, CaseIterable {
    /// Left alone.
    case off
    /// Flashes on the metronome's beat (a PowerMate's LED).
    case beat
}
