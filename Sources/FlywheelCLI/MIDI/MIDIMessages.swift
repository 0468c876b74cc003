import FlywheelCore

/// What flywheeld's events become on a MIDI port (channel 1–16).
struct MIDIMessages {
    static let start: [UInt8] = [0xFA], stop: [UInt8] = [0xFC], clock: [UInt8] = [0xF8]
    let channel: UInt8  // 0…15
    let mapping: MIDIMapping
    /// The last value of each control, to tell the size and direction of a step.
    var lastValues: [String: Double] = [:]
    /// The tempo, for the song position of a scrub commit.
    var bpm = 120.0

    init(channel: Int, mapping: MIDIMapping = MIDIMapping()) {
        self.channel = UInt8(min(max(channel, 1), 16) - 1)
        self.mapping = mapping
    }

    /// The bytes for one event from flywheeld.
    mutating func bytes(for event: JSONValue) -> [UInt8] {
        let kind = event["class"]?.stringValue ?? ""
        let phase = event["phase"]?.stringValue
        switch kind {
        case "tempo", "volume", "scrub":
            let key = kind == "tempo" ? "value" : kind == "volume" ? "volume" : "position"
            guard let value = event[key]?.doubleValue else { return [] }
            if kind == "tempo", let bpm = event["bpm"]?.doubleValue { self.bpm = bpm }
            let previous = lastValues[kind]
            // A `began` carries the value after the step it came with: the step is measured from
            // the value before it (the state's, or the last event's), which `began` never replaces.
            if phase != "began" || previous == nil { lastValues[kind] = value }
            if kind == "scrub", phase == "committed" { return songPosition(seconds: value) }
            // A step of the knob: relative CC, n up as n, n down as 64 + n (a `set` is not a step).
            guard phase == "moved", let previous, value != previous, let control = MIDIMapping.Control(rawValue: kind) else { return [] }
            return [0xB0 | channel, mapping.controller(for: control), Self.relative(control == .scrub ? (value > previous ? 1 : -1) : value - previous)]
        case "state":
            // The values before any step (the bridge asks for the state when it connects).
            let known = [("tempo", event["tempo"]?["value"]), ("volume", event["volume"]?["volume"]), ("scrub", event["scrub"]?["position"])]
            for (control, value) in known { if let value = value?.doubleValue { lastValues[control] = value } }
            return []
        case "button":
            guard let code = event["code"]?.doubleValue, let action = event["action"]?.stringValue else { return [] }
            guard (0...0x2ff).contains(code) else { return [] }
            switch (action, mapping.message(forButton: UInt16(code))) {
            case ("press", .note(let note)): return [0x90 | channel, note, 100]
            case ("release", .note(let note)): return [0x80 | channel, note, 0]
            case ("press", .controller(let number)): return [0xB0 | channel, number, 127]
            case ("release", .controller(let number)): return [0xB0 | channel, number, 0]
            default: return []
            }
        default:
            return []
        }
    }

    /// A relative CC value as Mackie jog wheels send it: +n as n, −n as 64 + n, n at most 63.
    static func relative(_ steps: Double) -> UInt8 {
        let size = UInt8(min(max(abs(steps).rounded(), 1), 63))
        return steps > 0 ? size : 64 + size
    }

    /// Song Position Pointer: MIDI beats (sixteenth notes) at the current tempo, 14 bits.
    func songPosition(seconds: Double) -> [UInt8] {
        let beats = min(max(Int((seconds * bpm / 60 * 4).rounded(.down)), 0), 0x3FFF)
        return [0xF2, UInt8(beats & 0x7F), UInt8(beats >> 7)]
    }
}
