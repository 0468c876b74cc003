import FlywheelCore

/// What a button does to MPD's playback (`flywheel mpd --button BTN_0=play-pause`).
enum MPDTransport: String, CaseIterable {
    case playPause = "play-pause"
    case next
    case previous
    case stop
    /// Volume 0, and back to where it was on the next tap (or when the knob turns).
    case mute
    /// MPD's `random` on and off.
    case shuffle
    /// MPD's `repeat` on and off.
    case `repeat`

    /// What MPD has now, as far as the buttons need it.
    struct Player {
        var playing = false
        var random = false
        var repeating = false
    }

    /// The MPD command, given the player's state (mute is the bridge's own: ``MPDBridge``).
    func command(_ player: Player) -> String {
        switch self {
        case .playPause: return player.playing ? "pause 1" : "play"
        case .next: return "next"
        case .previous: return "previous"
        case .stop: return "stop"
        case .shuffle: return "random \(player.random ? 0 : 1)"
        case .repeat: return "repeat \(player.repeating ? 0 : 1)"
        case .mute: return ""
        }
    }

    /// `BUTTON=ACTION`, the button as BTN_0…BTN_9 or a key code: the key code and the action.
    static func binding(_ text: String) -> (code: Int, action: MPDTransport)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let code = KeyCode.button(named: parts[0]), let action = MPDTransport(rawValue: parts[1]) else { return nil }
        return (Int(code), action)
    }
}
