import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel mpd`: keeps flywheeld's scrub control in step with MPD's current song and seeks
/// when a scrub commits — never on a cancelled one, never while a seek is still running (the
/// latest target waits and goes when the running seek is answered). The volume knob goes to MPD
/// the same way: one `setvol` at a time, the latest volume winning, never a queue of stale ones;
/// MPD's own volume (another client's change) comes back to flywheeld while the knob rests, one
/// read-back at a time, within flywheeld's volume cap (read from its `state`: MPD above the cap is
/// brought down to it) — ``VolumeSync``, MPD's mixer being the player.
/// Buttons play, pause, skip or stop. After either side (re)connects, flywheeld is resynchronised
/// from MPD at once: duration, position and volume. Both sides are on the bridges' one
/// ``SessionLoop``, non-blocking and bounded (``MPDClient``), so a silent, flooding or stalled
/// MPD never holds the bridge; each reconnects with backoff, saying so on standard error. Exits
/// cleanly on SIGTERM or SIGINT.
final class MPDBridge: SessionPart {
    /// While MPD plays, how often the position is read again (1 s).
    static let playingRefreshNanoseconds: Nanoseconds = 1_000_000_000

    let mpdAddress: MPDAddress
    /// What a tap of each button (by key code) does.
    let buttons: [Int: MPDTransport]
    let log: (String) -> Void
    let daemon: DaemonLink
    var mpd: MPDClient?
    var mpdBackoff = ReconnectBackoff()
    var pendingSeek: Double?
    var pendingTransport: [MPDTransport] = []
    /// flywheeld's volume and MPD's (its mixer's; nil when MPD has no mixer, said once per
    /// connection): the knob's latest volume waiting for MPD, and MPD's read back into flywheeld.
    var volumeSync = VolumeSync()
    var saidNoMixer = false
    /// `setvol` commands sent, for the log on exit.
    var setvolCount = 0
    var needsSync = true
    var scrubActive = false
    /// What the buttons need of MPD's state (playing, random, repeat), from its status.
    var player = MPDTransport.Player()
    var playing: Bool { player.playing }
    /// While muted by a button: the volume to go back to.
    var mutedFrom: Int?
    var lastSync: Nanoseconds = 0

    init(flywheel: String, mpd: MPDAddress, buttons: [Int: MPDTransport], log: @escaping (String) -> Void) {
        mpdAddress = mpd
        self.buttons = buttons
        self.log = log
        daemon = DaemonLink(
            path: flywheel, name: "flywheel mpd",
            request: [#"{"cmd":"watch","classes":["scrub","volume","button","navigate"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in handle($0) }
        daemon.onConnected = { [unowned self] _ in
            volumeSync.daemonConnected()  // read MPD's volume back into this daemon
            needsSync = true
            log("flywheel mpd: connected to flywheeld at \(flywheel).")
        }
    }

    // MARK: MPD's side

    func connectMPD(at now: Nanoseconds) {
        guard mpd == nil, mpdBackoff.mayTry(at: now) else { return }
        do {
            let client = try MPDClient(address: mpdAddress.address)
            client.onGreeted = { [unowned self, unowned client] in greeted(client) }
            client.onFailure = { [unowned self] reason in dropMPD(reason) }
            mpd = client
            mpdBackoff.connected(at: now)
        } catch {
            log("flywheel mpd: MPD at \(mpdAddress.address): \(ReconnectBackoff.clause(error.description)); \(mpdBackoff.failed(at: now))")
        }
    }

    func greeted(_ client: MPDClient) {
        saidNoMixer = false
        volumeSync.playerConnected()
        needsSync = true
        if let password = mpdAddress.password {
            client.command("password \(password)") { [unowned client] answer in
                if case .refused(let ack) = answer { client.fail("MPD refused the password from MPD_HOST: \(ack)") }
            }
        }
        log("flywheel mpd: connected to MPD at \(mpdAddress.address).")
    }

    func dropMPD(_ reason: String) {
        guard mpd != nil else { return }
        mpd = nil
        log("flywheel mpd: MPD at \(mpdAddress.address): \(ReconnectBackoff.clause(reason)); \(mpdBackoff.failed(at: MonotonicClock.now()))")
    }

    /// Whether something waits for MPD.
    var hasWork: Bool { needsSync || pendingSeek != nil || !pendingTransport.isEmpty || volumeSync.pending != nil }

    /// Gives MPD the next thing to do once it has answered the last (one command at a time, so the
    /// latest seek and volume win), or ends its idle when something waits, or idles.
    func pump() {
        guard let mpd, mpd.greeted, !mpd.failed else { return }
        if mpd.isIdling {
            if hasWork { mpd.noidle() }
            return
        }
        guard mpd.isQuiet else { return }
        if !pendingTransport.isEmpty {
            let action = pendingTransport.removeFirst()
            if action == .mute { return mute(mpd) }
            mpd.command(action.command(player)) { [unowned self] answer in
                if case .refused(let ack) = answer { log("flywheel mpd: MPD refused \(action.rawValue): \(ack)") }
                needsSync = true
            }
            switch action {
            case .playPause: player.playing.toggle()
            case .stop: player.playing = false
            case .shuffle: player.random.toggle()
            case .repeat: player.repeating.toggle()
            case .next, .previous, .mute: break
            }
        } else if let volume = volumeSync.takePending() {
            mutedFrom = nil  // the knob turned: no longer muted
            guard volumeSync.player != nil || !saidNoMixer else { return pump() }
            setvolCount += 1
            mpd.command("setvol \(volume)") { [unowned self] answer in
                switch answer {
                case .ok:
                    volumeSync.playerSet(volume)
                case .refused(let ack):
                    if ack.lowercased().contains("mixer") {
                        noMixer(ack)
                    } else {
                        log("flywheel mpd: MPD refused setvol \(volume): \(ack)")
                    }
                }
            }
        } else if let target = pendingSeek {
            pendingSeek = nil
            mpd.command("seekcur \(JSONValue.double(target).encoded())") { [unowned self] answer in
                if case .refused(let ack) = answer { log("flywheel mpd: MPD refused the seek to \(JSONValue.double(target).encoded()) s: \(ack)") }
                needsSync = true
            }
        } else if needsSync {
            needsSync = false
            sync(mpd)
        } else {
            mpd.idle("player mixer") { [unowned self] answer in
                if case .ok(let pairs) = answer, !pairs.isEmpty { needsSync = true }
            }
        }
    }

    /// The mute button: volume 0, remembering MPD's; on the next tap, back to it.
    func mute(_ mpd: MPDClient) {
        let target: Int
        if let from = mutedFrom {
            target = from
            mutedFrom = nil
        } else {
            guard let volume = volumeSync.player, volume > 0 else { return }
            mutedFrom = volume
            target = 0
        }
        setvolCount += 1
        mpd.command("setvol \(target)") { [unowned self] answer in
            if case .refused(let ack) = answer { log("flywheel mpd: MPD refused setvol \(target) (mute): \(ack)") }
            needsSync = true
        }
    }

    /// Reads MPD's status (and the song's length when the status lacks it), then tells flywheeld.
    func sync(_ mpd: MPDClient) {
        mpd.command("status") { [unowned self, unowned mpd] status in
            guard case .ok = status else {
                if case .refused(let ack) = status { log("flywheel mpd: MPD refused status: \(ack)") }
                return
            }
            if let duration = status.value("duration").flatMap(Double.init) {
                tell(status, duration: duration)
            } else {
                mpd.command("currentsong") { [unowned self] song in
                    tell(status, duration: (song.value("duration") ?? song.value("Time")).flatMap(Double.init) ?? 0)
                }
            }
        }
    }

    /// Tells flywheeld the song's length and, unless a scrub is under way, where the player is;
    /// and, while the volume knob rests with nothing for MPD, MPD's volume (within the cap).
    func tell(_ status: MPDClient.Answer, duration: Double) {
        lastSync = MonotonicClock.now()
        player.playing = status.value("state") == "play"
        player.random = status.value("random") == "1"
        player.repeating = status.value("repeat") == "1"
        let elapsed = status.value("elapsed").flatMap(Double.init) ?? 0
        let volume = status.value("volume").flatMap(Int.init).flatMap { $0 >= 0 ? $0 : nil }
        if volume == nil { noMixer(nil) }
        guard daemon.isConnected else { return needsSync = true }
        var fields: [(String, JSONValue)] = [("cmd", .string("set")), ("control", .string("scrub")), ("duration", .double(max(0, duration)))]
        if !scrubActive { fields.append(("position", .double(min(max(0, elapsed), max(0, duration))))) }
        daemon.send(JSONValue.object(fields).encoded())
        guard let volume else { return }
        if let back = volumeSync.playerReported(volume) {
            daemon.send(VolumeSync.daemonCommand(back))
        } else if volumeSync.firstAboveCap() {
            // flywheeld cannot hold a volume above its cap: MPD comes down to it, said once.
            log("flywheel mpd: MPD's volume \(volume) is above flywheeld's volume cap \(volumeSync.cap); bringing MPD down to \(volumeSync.cap).")
        }
    }

    /// MPD has no mixer: said once, and the knob's volume is not sent. `ack` is MPD's refusal, if one said so.
    func noMixer(_ ack: String?) {
        volumeSync.playerHasNoVolume()
        guard !saidNoMixer else { return }
        saidNoMixer = true
        log("flywheel mpd: MPD at \(mpdAddress.address) has no mixer\(ack.map { " (\($0))" } ?? ""), so the volume knob cannot change its volume; give an audio_output a mixer (mixer_type \"software\", \"hardware\" or \"null\") to use it.")
    }

    // MARK: flywheeld's side

    /// Handles one line from flywheeld.
    func handle(_ line: [UInt8]) {
        guard let message = try? JSONParser.parse(line) else { return }
        switch message["class"]?.stringValue {
        case "scrub":
            switch message["phase"]?.stringValue {
            case "began": scrubActive = true
            case "committed":
                scrubActive = false
                if let position = message["position"]?.doubleValue { pendingSeek = position }  // the latest wins
            case "cancelled": scrubActive = false  // nothing to do: the player never moved
            default: break
            }
        case "volume", "state", "error":
            // The knob's volume (the latest wins; nothing to send where MPD has it), the cap, a
            // read-back's echo (MPD keeps its own) or a read-back refused. MPD is read when the cap
            // comes, and again when an echo or error comes after MPD was read meanwhile.
            if volumeSync.daemon(message) { needsSync = true }
            if volumeSync.player == nil, saidNoMixer { _ = volumeSync.takePending() }  // MPD has no mixer
        case "navigate":
            // The navigator's detents: next and previous, in order (16 at most waiting).
            let steps = Int(max(-16, min(16, message["steps"]?.doubleValue ?? 0)))
            for _ in 0..<abs(steps) where pendingTransport.count < 16 { pendingTransport.append(steps > 0 ? .next : .previous) }
        case "button":
            guard message["action"]?.stringValue == "tap", let code = message["code"]?.doubleValue, let action = buttons[Int(code)] else { return }
            if pendingTransport.count < 16 { pendingTransport.append(action) }
        case "hello": needsSync = true
        default: break
        }
    }

    // MARK: The loop

    var pollRequest: pollfd? {
        guard let mpd, !mpd.failed else { return nil }
        return pollfd(fd: mpd.connection.fd, events: mpd.connection.pollEvents, revents: 0)
    }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard let mpd, mpd.connection.fd == fd else { return }
        mpd.ready(revents: revents)
    }

    var deadline: Nanoseconds? {
        guard let mpd else { return mpdBackoff.nextAttemptNanoseconds }
        let refresh = playing && mpd.isIdling && daemon.isConnected ? lastSync + Self.playingRefreshNanoseconds : nil
        return [mpd.deadline, refresh].compactMap { $0 }.min()
    }

    func due(at now: Nanoseconds) {
        guard let mpd else { return connectMPD(at: now) }
        mpd.due(at: now)
        // While playing, the position is read again every second.
        if playing, mpd.isIdling, now >= lastSync + Self.playingRefreshNanoseconds { needsSync = true }
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon, self]
        loop.beforePoll = { [unowned self] in pump() }
        daemon.due(at: MonotonicClock.now())
        connectMPD(at: MonotonicClock.now())
        try loop.run()
        log("flywheel mpd: stopping; \(setvolCount) setvol commands sent.")
    }
}
