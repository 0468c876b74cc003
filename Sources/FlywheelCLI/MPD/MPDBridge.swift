import FlywheelCore
import FlywheelIO
import Glibc

/// `flywheel mpd`: keeps flywheeld's scrub control in step with MPD's current song and seeks
/// when a scrub commits — never on a cancelled one, never while a seek is still running (the
/// latest target waits and goes when the running seek is answered). Reconnects to either side
/// with backoff, saying so on standard error; exits cleanly on SIGTERM or SIGINT.
final class MPDBridge {
    let flywheelAddress: String
    let mpdAddress: String
    let pauseButton: Int?
    let log: (String) -> Void
    var flywheel: LineSocket?
    var mpd: MPDClient?
    var idling = false
    var noidleSent = false
    var pendingSeek: Double?
    var pendingPause = false
    var needsSync = true
    var scrubActive = false
    var playing = false
    var backoff: [String: Double] = [:]
    var nextAttempt: [String: Double] = [:]

    init(flywheel: String, mpd: String, pauseButton: Int?, log: @escaping (String) -> Void) {
        flywheelAddress = flywheel
        mpdAddress = mpd
        self.pauseButton = pauseButton
        self.log = log
    }

    static func now() -> Double { Double(MonotonicClock.now()) / 1e9 }

    /// Whether a reconnection to `side` may be tried now; after a failure the wait doubles up to 10 s.
    func mayTry(_ side: String) -> Bool { Self.now() >= nextAttempt[side, default: 0] }

    func failed(_ side: String, _ address: String, _ reason: String) {
        let wait = min(10, max(0.25, (backoff[side] ?? 0.125) * 2))
        backoff[side] = wait
        nextAttempt[side] = Self.now() + wait
        log("flywheel mpd: \(side) at \(address): \(reason); retrying in \(MotionPlot.fixed(wait, 2)) s.")
    }

    func connectFlywheel() {
        guard flywheel == nil, mayTry("flywheeld") else { return }
        do {
            let socket = try LineSocket(connectingTo: flywheelAddress)
            try socket.send(#"{"cmd":"watch","classes":["scrub","button"],"frames":false}"#)
            flywheel = socket
            backoff["flywheeld"] = nil
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
            backoff["MPD"] = nil
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

    /// Tells flywheeld the song's length and, unless a scrub is under way, where the player is.
    func sync() throws {
        guard let mpd, let flywheel else { return }
        let status = try mpd.playerStatus()
        playing = status.playing
        var fields: [(String, JSONValue)] = [("cmd", .string("set")), ("control", .string("scrub")), ("duration", .double(status.duration))]
        if !scrubActive { fields.append(("position", .double(min(status.elapsed, status.duration)))) }
        try flywheel.send(JSONValue.object(fields).encoded())
        needsSync = false
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
        case "button":
            if let pauseButton, message["action"]?.stringValue == "tap", message["code"] == .int(pauseButton) { pendingPause = true }
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
                    if pendingPause {
                        _ = try mpd.command("pause")
                        pendingPause = false
                        needsSync = true
                    }
                    if let target = pendingSeek {
                        pendingSeek = nil
                        _ = try mpd.command("seekcur \(JSONValue.double(target).encoded())")
                        needsSync = true
                    }
                    if needsSync { try sync() }
                    try mpd.socket.send("idle player")
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
                let next = nextAttempt.values.min() ?? Self.now()
                timeout = Int32(max(0, (next - Self.now()) * 1000).rounded(.up))
            } else if playing {
                timeout = 1000
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if fds[0].revents != 0 {
                if !signals.drain().isEmpty { return }
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
            // A commit or a pause waits for the idle to end.
            if let mpd, idling, !noidleSent, pendingSeek != nil || pendingPause {
                do {
                    try mpd.socket.send("noidle")
                    noidleSent = true
                } catch { dropMPD("\(error)") }
            }
        }
    }
}
