import FlywheelCore

/// Which OSC messages flywheeld's events become.
enum OSCPreset: String, CaseIterable {
    /// `/flywheel/tempo ,f BPM`, `/flywheel/scrub ,fs POSITION PHASE`, `/flywheel/volume ,f`,
    /// `/flywheel/mode ,s`, `/flywheel/button ,is CODE ACTION`.
    case generic
    /// The klick metronome: `/klick/simple/set_tempo ,f BPM`.
    case klick

    /// The classes the preset needs from flywheeld.
    var classes: [String] {
        switch self {
        case .generic: return ["tempo", "scrub", "volume", "mode", "button"]
        case .klick: return ["tempo"]
        }
    }

    /// The messages for one event from flywheeld (none for what the preset does not carry).
    func messages(for event: JSONValue) -> [OSCMessage] {
        func number(_ key: String) -> Float? { event[key]?.doubleValue.map { Float($0) } }
        func text(_ key: String) -> String? { event[key]?.stringValue }
        switch (self, text("class")) {
        case (.generic, "tempo"):
            return number("bpm").map { [OSCMessage("/flywheel/tempo", [.float($0)])] } ?? []
        case (.generic, "scrub"):
            guard let position = number("position"), let phase = text("phase") else { return [] }
            return [OSCMessage("/flywheel/scrub", [.float(position), .string(phase)])]
        case (.generic, "volume"):
            return number("volume").map { [OSCMessage("/flywheel/volume", [.float($0)])] } ?? []
        case (.generic, "mode"):
            return text("mode").map { [OSCMessage("/flywheel/mode", [.string($0)])] } ?? []
        case (.generic, "button"):
            guard let code = event["code"]?.doubleValue, let action = text("action") else { return [] }
            return [OSCMessage("/flywheel/button", [.int(Int32(clamping: Int(code))), .string(action)])]
        case (.klick, "tempo"):
            return number("bpm").map { [OSCMessage("/klick/simple/set_tempo", [.float($0)])] } ?? []
        default:
            return []
        }
    }
}
