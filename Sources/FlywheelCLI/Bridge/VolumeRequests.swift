import FlywheelCore

/// What a volume bridge (``HTTPVolumeBridge``, ``PipeWireBridge``) asks of its player next, one
/// request at a time: the mute button's tap first, then the knob's latest volume (``VolumeSync``:
/// the latest wins), then a read of the player's volume — only while flywheeld is connected, so
/// that what is read has somewhere to go. A failed request's mute or volume waits again, and the
/// volume is read once the player answers. The bridge owns the transport and the backoff.
struct VolumeRequests {
    /// A request to the player.
    enum Request: Equatable {
        case read
        case set(Int)
        case mute
    }

    /// The key code whose tap mutes and unmutes.
    let muteButton: Int?
    /// flywheeld's volume and the player's, in step.
    var sync = VolumeSync()
    /// The player's volume is to be read.
    var needsRead = false
    /// A tap of the mute button waits for the player.
    private(set) var pendingMute = false

    init(muteButton: Int?) { self.muteButton = muteButton }

    /// A line from flywheeld: its state (the player's volume is then read), the knob's volume, or
    /// the mute button's tap.
    mutating func daemon(_ line: [UInt8]) {
        guard let message = try? JSONParser.parse(line) else { return }
        if sync.daemon(message) { needsRead = true }
        if message["class"]?.stringValue == "button", message["action"]?.stringValue == "tap",
            let code = message["code"]?.doubleValue, let muteButton, Int(code) == muteButton
        {
            pendingMute = true
        }
    }

    /// Whether anything waits for the player.
    var waiting: Bool { pendingMute || sync.pending != nil || needsRead }

    /// The next request, taken off what waits; nil when nothing waits (or only a read, while
    /// flywheeld is away).
    mutating func next(daemonConnected: Bool) -> Request? {
        if pendingMute {
            pendingMute = false
            return .mute
        }
        if let volume = sync.takePending() { return .set(volume) }
        if needsRead, daemonConnected {
            needsRead = false
            return .read
        }
        return nil
    }

    /// `request` failed: its mute or volume waits again, and the volume is read afterwards.
    mutating func failed(_ request: Request) {
        if case .set(let volume) = request { sync.restore(volume) }
        if request == .mute { pendingMute = true }
        needsRead = true
    }

    /// What became of the player's volume as read.
    enum Report: Equatable {
        /// It goes back to flywheeld: this command.
        case toDaemon(String)
        /// It is above flywheeld's cap, said now for the first time: the player is brought down to it.
        case aboveCap
        /// Nothing to do.
        case none
    }

    /// The player's volume, read: back to flywheeld unless the knob has moved on.
    mutating func reported(_ volume: Int) -> Report {
        if let back = sync.playerReported(volume) { return .toDaemon(VolumeSync.daemonCommand(back)) }
        return sync.firstAboveCap() ? .aboveCap : .none
    }
}
