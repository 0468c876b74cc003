import FlywheelCore

/// What flywheeld's events become on a MIDI port (channel 1–16).
struct MIDIMessages {
    static let start: [UInt8] = [0xFA], stop: [UInt8] = [0xFC], clock: [UInt8] = [0xF8]
    /// The controller a knob's steps go to: 60, as the Mackie jog wheel's.
    static let knobController: UInt8 = 60
    /// The note of BTN_0 (C2); BTN_n is that plus n.
    static let firstButtonNote = 36

    /// How buttons are sent: as notes (on at press, off at release) or as controllers (127 at
    /// press, 0 at release), both numbered from 36 for BTN_0.
    enum ButtonStyle: String, CaseIterable {
        case notes
        case cc
    }

    let channel: UInt8  // 0…15
    let buttonStyle: ButtonStyle
    /// The last value of each control, to tell the direction of a step.
    var lastValues: [String: Double] = [:]
    /// The tempo, for the song position of a scrub commit.
    var bpm = 120.0

    init(channel: Int, buttons: ButtonStyle = .notes) {
        self.channel = UInt8(min(max(channel, 1), 16) - 1)
        buttonStyle = buttons
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
            lastValues[kind] = value
            if kind == "scrub", phase == "committed" { return songPosition(seconds: value) }
            // A step of the knob: relative CC, 1 up, 65 down (a `set` is not a step).
            guard phase == "moved", let previous, value != previous else { return [] }
            return [0xB0 | channel, Self.knobController, value > previous ? 1 : 65]
        case "button":
            guard let code = event["code"]?.doubleValue, let action = event["action"]?.stringValue else { return [] }
            let note = UInt8(min(max(Self.firstButtonNote + Int(code) - Int(KeyCode.btn0), 0), 127))
            switch (action, buttonStyle) {
            case ("press", .notes): return [0x90 | channel, note, 100]
            case ("release", .notes): return [0x80 | channel, note, 0]
            case ("press", .cc): return [0xB0 | channel, note, 127]
            case ("release", .cc): return [0xB0 | channel, note, 0]
            default: return []
            }
        default:
            return []
        }
    }

    /// Song Position Pointer: MIDI beats (sixteenth notes) at the current tempo, 14 bits.
    func songPosition(seconds: Double) -> [UInt8] {
        let beats = min(max(Int((seconds * bpm / 60 * 4).rounded(.down)), 0), 0x3FFF)
        return [0xF2, UInt8(beats & 0x7F), UInt8(beats >> 7)]
    }
}
