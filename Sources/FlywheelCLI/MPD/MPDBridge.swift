import FlywheelCore
import FlywheelIO
import Glibc

/// `flywheel mpd`: keeps flywheeld's scrub control in step with MPD's current song and seeks
/// when a scrub commits — never on a cancelled one, never while a seek is still running (the
/// latest target waits and goes when the running seek is answered). The volume knob goes to MPD
/// the same way: one `setvol` at a time, the latest volume winning, never a queue of stale ones;
/// MPD's own volume (another client's change) comes back to flywheeld while the knob rests.
/// Buttons play, pause, skip or stop. Reconnects to either side with backoff, saying so on
/// standard error; exits cleanly on SIGTERM or SIGINT.
final class MPDBridge {
    let flywheelAddress: String
    let mpdAddress: String
    /// What a tap of each button (by key code) does.
    let buttons: [Int: MPDTransport]
    let log: (String) -> Void
    var flywheel: LineSocket?
    var mpd: MPDClient?
    var idling = false
    var noidleSent = false
    var pendingSeek: Double?
    var pendingTransport: [MPDTransport] = []
    /// The knob's latest volume MPD has not been told (the latest wins).
    var pendingVolume: Int?
    /// A gesture on the volume is under way (between `began` and `settled`): MPD's volume is not
    /// read back into flywheeld meanwhile.
    var volumeTurning = false
    /// The volume flywheeld last reported, and its cap.
    var flywheelVolume: Int?
    var volumeCap = 100
    /// MPD's mixer volume; nil when MPD has no mixer (said once per connection).
    var mpdVolume: Int?
    /// MPD's volume as last agreed with flywheeld (set by the knob or read back): MPD's volume is
    /// read back only when it moves away from this, so a volume between the knob's steps (which
    /// flywheeld rounds to a step) is left as MPD has it.
    var agreedVolume: Int?
    /// A read-back `set` was sent: its `volume` echo is not sent back to MPD.
    var awaitingEcho = false
    var saidNoMixer = false
    /// `setvol` commands sent, for the log on exit.
    var setvolCount = 0
    var needsSync = true
    var scrubActive = false
    var playing = false
    var backoff: [String: ReconnectBackoff] = ["flywheeld": ReconnectBackoff(), "MPD": ReconnectBackoff()]

    init(flywheel: String, mpd: String, buttons: [Int: MPDTransport], log: @escaping (String) -> Void) {
        flywheelAddress = flywheel
        mpdAddress = mpd
        self.buttons = buttons
        self.log = log
    }

    /// Whether a reconnection to `side` may be tried now; after a failure the wait doubles up to 10 s.
    func mayTry(_ side: String) -> Bool { backoff[side, default: ReconnectBackoff()].mayTry(at: MonotonicClock.now()) }

    func failed(_ side: String, _ address: String, _ reason: String) {
        log("flywheel mpd: \(side) at \(address): \(ReconnectBackoff.clause(reason)); \(backoff[side, default: ReconnectBackoff()].failed(at: MonotonicClock.now()))")
    }

    func connectFlywheel() {
        guard flywheel == nil, mayTry("flywheeld") else { return }
        do {
            let socket = try LineSocket(connectingTo: flywheelAddress)
            try socket.send(#"{"cmd":"watch","classes":["scrub","volume","button"],"frames":false}"#)
            flywheel = socket
            flywheelVolume = nil  // read MPD's volume back into this daemon
            agreedVolume = nil
            awaitingEcho = false
            backoff["flywheeld"]?.succeeded()
            needsSync = true
            log("flywheel mpd: connected to flywheeld at \(flywheelAddress).")
        } catch {
            failed("flywheeld", flywheelAddress, "\(error)")
        }
    }

    func connectMPD() {
        guard mpd == nil, mayTry("MPD") else { return }
        do {
            mpd = try MPDClient(address: mpdAddress)
            idling = false
            noidleSent = false
            saidNoMixer = false
            backoff["MPD"]?.succeeded()
            needsSync = true
            log("flywheel mpd: connected to MPD at \(mpdAddress).")
        } catch {
            failed("MPD", mpdAddress, "\(error)")
        }
    }

    func dropMPD(_ reason: String) {
        mpd = nil
        idling = false
        failed("MPD", mpdAddress, reason)
    }

    func dropFlywheel(_ reason: String) {
        flywheel = nil
        failed("flywheeld", flywheelAddress, reason)
    }

    /// Tells flywheeld the song's length and, unless a scrub is under way, where the player is;
    /// and, while the volume knob rests with nothing for MPD, MPD's volume (within the cap).
    func sync() throws {
        guard let mpd, let flywheel else { return }
        let status = try mpd.playerStatus()
        playing = status.playing
        mpdVolume = status.volume
        if status.volume == nil { noMixer() }
        var fields: [(String, JSONValue)] = [("cmd", .string("set")), ("control", .string("scrub")), ("duration", .double(status.duration))]
        if !scrubActive { fields.append(("position", .double(min(status.elapsed, status.duration)))) }
        try flywheel.send(JSONValue.object(fields).encoded())
        if let volume = status.volume, !volumeTurning, pendingVolume == nil, volume != agreedVolume, volume != flywheelVolume {
            if volume > volumeCap {
                pendingVolume = volumeCap  // above the cap: brought down to it
            } else {
                try flywheel.send(#"{"cmd":"set","control":"volume","volume":\#(volume)}"#)
                agreedVolume = volume
                awaitingEcho = true
            }
        }
        needsSync = false
    }

    /// MPD has no mixer: said once, and the knob's volume is not sent.
    func noMixer() {
        mpdVolume = nil
        pendingVolume = nil
        guard !saidNoMixer else { return }
        saidNoMixer = true
        log("flywheel mpd: MPD at \(mpdAddress) has no mixer, so the volume knob cannot change its volume; give an audio_output a mixer (mixer_type \"software\", \"hardware\" or \"null\") to use it.")
    }

    /// The knob's volume to MPD (the latest only), unless MPD has no mixer.
    func sendVolume(_ mpd: MPDClient) throws {
        guard let volume = pendingVolume else { return }
        pendingVolume = nil
        guard mpdVolume != nil || !saidNoMixer else { return }
        setvolCount += 1
        do {
            _ = try mpd.command("setvol \(volume)")
            mpdVolume = volume
            agreedVolume = volume
        } catch let error as MPDClient.Failure where error.description.hasPrefix("MPD refused") {
            noMixer()
        }
    }

    /// Handles one line from flywheeld.
    func handle(_ line: String) {
        guard let message = try? JSONParser.parse(Array(line.utf8)) else { return }
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
        case "volume":
            guard let volume = message["volume"]?.doubleValue.map({ Int($0) }) else { return }
            switch message["phase"]?.stringValue {
            case "began": volumeTurning = true
            case "settled": volumeTurning = false
            default: break
            }
            flywheelVolume = volume
            if awaitingEcho, message["phase"]?.stringValue == "set" {
                awaitingEcho = false  // flywheeld took MPD's volume (rounded to a step): MPD keeps its own
                return
            }
            // The latest wins; nothing to send where MPD has it, or has no mixer.
            pendingVolume = volume == mpdVolume || (mpdVolume == nil && saidNoMixer) ? nil : volume
        case "state":
            if let cap = message["volume"]?["cap"]?.doubleValue { volumeCap = Int(cap) }
        case "button":
            guard message["action"]?.stringValue == "tap", let code = message["code"]?.doubleValue, let action = buttons[Int(code)] else { return }
            if pendingTransport.count < 16 { pendingTransport.append(action) }
        case "hello": needsSync = true
        default: break
        }
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws {
        let signals = try SignalSource([SIGTERM, SIGINT])
        while true {
            connectFlywheel()
            connectMPD()
            if let mpd, !idling {
                do {
                    while !pendingTransport.isEmpty {
                        let action = pendingTransport.removeFirst()
                        _ = try mpd.command(action.command(playing: playing))
                        if action == .playPause { playing.toggle() } else if action == .stop { playing = false }
                        needsSync = true
                    }
                    try sendVolume(mpd)
                    if let target = pendingSeek {
                        pendingSeek = nil
                        _ = try mpd.command("seekcur \(JSONValue.double(target).encoded())")
                        needsSync = true
                    }
                    if needsSync { try sync() }
                    try mpd.socket.send("idle player mixer")
                    idling = true
                    noidleSent = false
                } catch let error as MPDClient.Failure where error.description.hasPrefix("MPD refused") {
                    log("flywheel mpd: \(error)")
                    needsSync = true
                } catch let error as SystemError where error.subject == flywheelAddress {
                    dropFlywheel(error.description)  // telling flywheeld the position failed
                    continue
                } catch {
                    dropMPD("\(error)")
                    continue
                }
            }
            var fds = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
            if let flywheel { fds.append(pollfd(fd: flywheel.fd, events: Int16(POLLIN), revents: 0)) }
            if let mpd { fds.append(pollfd(fd: mpd.socket.fd, events: Int16(POLLIN), revents: 0)) }
            // Wake for a reconnection attempt, or every second while playing to keep the position current.
            var timeout: Int32 = -1
            if flywheel == nil || mpd == nil {
                let now = MonotonicClock.now()
                timeout = backoff.values.filter { !$0.mayTry(at: now) }.map { $0.pollTimeoutMilliseconds(at: now) }.min() ?? 0
            } else if playing {
                timeout = 1000
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if fds[0].revents != 0 {
                if !signals.drain().isEmpty {
                    log("flywheel mpd: stopping; \(setvolCount) setvol commands sent.")
                    return
                }
            }
            if ready == 0, playing, let mpd, idling, !noidleSent {
                try? mpd.socket.send("noidle")
                noidleSent = true
                needsSync = true
            }
            for entry in fds.dropFirst() where entry.revents != 0 {
                if let flywheel, entry.fd == flywheel.fd {
                    do {
                        guard try flywheel.fill() else { dropFlywheel("flywheeld closed the connection"); continue }
                        while let line = flywheel.bufferedLine() { handle(line) }
                    } catch { dropFlywheel("\(error)") }
                } else if let mpd, entry.fd == mpd.socket.fd {
                    do {
                        _ = try mpd.answer()  // the idle (or noidle) ended: something changed
                        idling = false
                        needsSync = true
                    } catch { dropMPD("\(error)") }
                }
            }
            // A commit, a button or a volume waits for the idle to end.
            if let mpd, idling, !noidleSent, pendingSeek != nil || !pendingTransport.isEmpty || pendingVolume != nil {
                do {
                    try mpd.socket.send("noidle")
                    noidleSent = true
                } catch { dropMPD("\(error)") }
            }
        }
    }
}
