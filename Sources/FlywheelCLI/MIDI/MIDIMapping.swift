import FlywheelCore

/// Which MIDI messages the knob's controls and the buttons become (`flywheel midi --knob-cc`,
/// `--buttons`, `--button`): each control's relative controller (60 unless set), and each button's
/// note or controller (a button not named is numbered from 36 for BTN_0 in the `--buttons` style).
struct MIDIMapping: Equatable {
    /// The controls whose steps are sent as relative CC.
    enum Control: String, CaseIterable {
        case tempo
        case volume
        case scrub
    }

    /// How buttons not mapped one by one are sent: as notes (on at press, off at release) or as
    /// controllers (127 at press, 0 at release).
    enum ButtonStyle: String, CaseIterable {
        case notes
        case cc
    }

    /// What one button sends.
    enum ButtonMessage: Equatable {
        /// Note on (velocity 100) at press, note off at release.
        case note(UInt8)
        /// The controller at 127 at press, 0 at release.
        case controller(UInt8)
    }

    /// The controller every control's steps go to unless set one by one: 60, the Mackie jog wheel's.
    static let defaultController: UInt8 = 60
    /// The note (or controller) of BTN_0 when buttons are numbered (C2); BTN_n is that plus n.
    static let firstButtonNumber = 36

    var controllers: [Control: UInt8] = [:]
    var buttonStyle: ButtonStyle = .notes
    var buttons: [UInt16: ButtonMessage] = [:]

    /// The controller `control`'s steps go to.
    func controller(for control: Control) -> UInt8 { controllers[control] ?? Self.defaultController }

    /// What the button with key code `code` sends.
    func message(forButton code: UInt16) -> ButtonMessage {
        if let message = buttons[code] { return message }
        let number = UInt8(min(max(Self.firstButtonNumber + Int(code) - Int(KeyCode.btn0), 0), 127))
        return buttonStyle == .notes ? .note(number) : .controller(number)
    }

    /// `--knob-cc N` (every control) or `--knob-cc CONTROL=N`, N a controller 0–119 (120–127 are
    /// channel mode messages); false when `text` is neither.
    mutating func setController(_ text: String) -> Bool {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let number = Self.number(parts.last!, upTo: 119) else { return false }
        if parts.count == 1 {
            for control in Control.allCases { controllers[control] = number }
            return true
        }
        guard let control = Control(rawValue: parts[0]) else { return false }
        controllers[control] = number
        return true
    }

    /// `--button BUTTON=note:N` or `BUTTON=cc:N`, BUTTON as BTN_0…BTN_9 or a key code; false when
    /// `text` is neither.
    mutating func setButton(_ text: String) -> Bool {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let code = KeyCode.button(named: parts[0]) else { return false }
        let target = parts[1].split(separator: ":", maxSplits: 1).map(String.init)
        guard target.count == 2 else { return false }
        switch target[0] {
        case "note":
            guard let number = Self.number(target[1], upTo: 127) else { return false }
            buttons[code] = .note(number)
        case "cc":
            guard let number = Self.number(target[1], upTo: 119) else { return false }
            buttons[code] = .controller(number)
        default:
            return false
        }
        return true
    }

    static func number(_ text: String, upTo maximum: UInt8) -> UInt8? {
        guard let number = UInt8(text), number <= maximum else { return nil }
        return number
    }
}
