import FlywheelCore

/// What a button does to MPD's playback (`flywheel mpd --button BTN_0=play-pause`).
enum MPDTransport: String, CaseIterable {
    case playPause = "play-pause"
    case next
    case previous
    case stop

    /// The MPD command, given whether it plays now.
    func command(playing: Bool) -> String {
        switch self {
        case .playPause: return playing ? "pause 1" : "play"
        case .next: return "next"
        case .previous: return "previous"
        case .stop: return "stop"
        }
    }

    /// `BUTTON=ACTION`, the button as BTN_0…BTN_9 or a key code: the key code and the action.
    static func binding(_ text: String) -> (code: Int, action: MPDTransport)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let code = KeyCode.button(named: parts[0]), let action = MPDTransport(rawValue: parts[1]) else { return nil }
        return (Int(code), action)
    }
}
