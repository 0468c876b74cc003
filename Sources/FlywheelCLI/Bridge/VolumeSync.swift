import FlywheelCore

/// flywheeld's volume kept in step with a player that has a volume of its own (MPD's mixer, Volumio,
/// moOde, PipeWire's default sink), both 0…100: the knob's latest volume waits for the player (the
/// latest wins, never a queue), and the player's own volume, once read, comes back to flywheeld
/// while the knob rests, one read-back at a time — within flywheeld's cap (a player above it is
/// brought down to it).
/// The bridge owns the transport; this holds only what each side last said.
struct VolumeSync {
    /// flywheeld's volume cap (from its `state`), and whether this connection's `state` came.
    private(set) var cap = 100
    private(set) var knowsCap = false
    /// A gesture on the volume is under way (between `began` and `settled`).
    private(set) var turning = false
    /// flywheeld's latest volume.
    private(set) var flywheel: Int?
    /// The player's volume as last read or set.
    private(set) var player: Int?
    /// The knob's latest volume the player has not been given.
    private(set) var pending: Int?
    /// The volume last agreed between the two: the player's is read back only when it moves away.
    private var agreed: Int?
    /// A read-back `set` went to flywheeld: its echo is not sent back to the player. One at a time:
    /// the player's volume read meanwhile waits for it (each echo would otherwise be taken for the
    /// knob's, and an older volume sent back to the player).
    private var awaitingEcho = false
    /// The player's volume was read while a read-back awaited its echo: it is read again once the
    /// echo (or an error) has come, so that flywheeld gets the latest.
    private var readAfterEcho = false
    /// Whether the player was said to be above the cap.
    private(set) var saidAboveCap = false

    /// flywheeld (re)connected: what it said before is forgotten, and the player's volume is read back into it.
    mutating func daemonConnected() {
        flywheel = nil
        agreed = nil
        knowsCap = false
        awaitingEcho = false
        readAfterEcho = false
    }

    /// A line from flywheeld: true when the player's volume should be read now (the cap just became
    /// known, or a read-back's echo or error came after the player was read).
    mutating func daemon(_ message: JSONValue) -> Bool {
        switch message["class"]?.stringValue {
        case "state":
            if let cap = message["volume"]?["cap"]?.doubleValue { self.cap = Int(cap) }
            if let volume = message["volume"]?["volume"]?.doubleValue { flywheel = Int(volume) }
            if !knowsCap {
                knowsCap = true
                return true
            }
        case "volume":
            guard let volume = message["volume"]?.doubleValue.map({ Int($0) }) else { return false }
            switch message["phase"]?.stringValue {
            case "began": turning = true
            case "settled": turning = false
            default: break
            }
            flywheel = volume
            if awaitingEcho, message["phase"]?.stringValue == "set" {
                awaitingEcho = false  // flywheeld took the player's volume: the player keeps its own
                return echoCame()  // and flywheeld takes what the player moved to meanwhile
            }
            pending = volume == player ? nil : volume
        case "error":
            if awaitingEcho { agreed = nil }
            awaitingEcho = false
            return echoCame()
        default: break
        }
        return false
    }

    /// The knob's volume for the player, taken to be sent.
    mutating func takePending() -> Int? {
        defer { pending = nil }
        return pending
    }

    /// The player accepted `volume`.
    mutating func playerSet(_ volume: Int) {
        player = volume
        agreed = volume
    }

    /// The player said its volume is `volume`: the volume to give flywheeld, if any (nil while the
    /// knob turns, while something waits for the player, while a read-back awaits its echo, or
    /// where they agree). A volume above the cap is not given: the player is brought down to the
    /// cap instead (``pending``).
    mutating func playerReported(_ volume: Int) -> Int? {
        player = volume
        guard knowsCap, !turning, pending == nil, volume != agreed else { return nil }
        if awaitingEcho {
            readAfterEcho = true  // flywheeld's volume is not yet the one sent: compared once the echo has come
            return nil
        }
        guard volume != flywheel else { return nil }
        if volume > cap {
            pending = cap
            return nil
        }
        agreed = volume
        awaitingEcho = true
        return volume
    }

    /// Whether the player is above the cap and this is the first time it is said.
    mutating func firstAboveCap() -> Bool {
        guard let player, player > cap, !saidAboveCap else { return false }
        saidAboveCap = true
        return true
    }

    /// The command that sets flywheeld's volume to `volume`.
    static func daemonCommand(_ volume: Int) -> String { #"{"cmd":"set","control":"volume","volume":\#(volume)}"# }
}

extension VolumeSync {
    /// A read-back's echo or error came: whether the player, read meanwhile, is to be read again.
    private mutating func echoCame() -> Bool {
        defer { readAfterEcho = false }
        return readAfterEcho
    }

    /// The player has no volume (an MPD without a mixer): none is kept, and the knob's waits no more.
    mutating func playerHasNoVolume() {
        player = nil
        pending = nil
    }

    /// The player (re)connected: a volume above the cap is said again.
    mutating func playerConnected() { saidAboveCap = false }

    /// `volume` did not reach the player: it waits again, unless the knob has moved on.
    mutating func restore(_ volume: Int) {
        if pending == nil { pending = volume }
    }
}
