import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel alsa`: flywheeld's volume on an ALSA mixer element, through the kernel's control
/// interface (``ALSAControl``), on the bridges' ``SessionLoop``. The volume is alsamixer's
/// perceptual one (``ALSAVolumeScale``); every channel gets the same value. The mixer's changes
/// from elsewhere (alsamixer, amixer, another program) come back to flywheeld while the knob
/// rests, within its volume cap; after either side (re)connects, flywheeld takes the mixer's
/// volume. A button may toggle the element's switch (mute). A card that goes away is said and
/// opened again with backoff, as is the daemon.
final class ALSABridge: SessionPart {
    struct Options {
        /// The card: its number or id.
        var card: String
        /// The simple control's name (`Master`, `PCM`) or an element's full name.
        var control: String
        /// Buttons (key codes) whose tap toggles the switch.
        var muteButtons: Set<Int> = []
    }

    let options: Options
    let log: (String) -> Void
    let daemon: DaemonLink
    private var mixer: ALSAControl?
    private var volume: ALSAControl.Element?
    private var mute: ALSAControl.Element?
    private var scale = ALSAVolumeScale(raw: 0...0, curve: .raw)
    private var backoff = ReconnectBackoff()
    /// The mixer's volume (raw, the loudest channel) as last read or written.
    private var mixerRaw: Int?
    /// The raw volume last agreed with flywheeld (written for its volume, or read back into it):
    /// the mixer's events are read back only when it moves away from this.
    private var agreedRaw: Int?
    /// A gesture on the volume is under way: the mixer is not read back meanwhile.
    private var volumeTurning = false
    private var volumeCap = 100
    /// Whether this connection's `state` has come (the cap is known).
    private var knowsCap = false
    /// A read-back `set` was sent: its echo is not written back to the mixer. One at a time: the
    /// mixer's changes meanwhile wait for it (each echo would otherwise be taken for the knob's,
    /// and a burst of changes written back to the mixer).
    private var awaitingEcho = false
    /// flywheeld should take the mixer's volume (after a connection, or once the knob rests).
    private var needsSync = true
    private var saidNoSwitch = false
    private var saidAboveCap = false
    /// Writes to the mixer's volume, for the log on exit.
    private(set) var writes = 0

    init(flywheel: String, options: Options, log: @escaping (String) -> Void) {
        self.options = options
        self.log = log
        daemon = DaemonLink(
            path: flywheel, name: "flywheel alsa",
            request: [#"{"cmd":"watch","classes":["volume","button"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in handleDaemon($0) }
        daemon.onConnected = { [unowned self] _ in
            knowsCap = false
            awaitingEcho = false
            volumeTurning = false
            needsSync = true
            log("flywheel alsa: connected to flywheeld at \(flywheel).")
        }
    }

    /// The element names tried for the volume and the switch, in order.
    static func candidates(_ control: String) -> (volume: [String], switch: [String]) {
        var base = control
        for suffix in [" Playback Volume", " Volume"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        return ([base + " Playback Volume", base + " Volume", control], [base + " Playback Switch", base + " Switch"])
    }

    var cardName: String { "card \(options.card)" }

    // MARK: The mixer's side

    func openMixer(at now: Nanoseconds) {
        guard mixer == nil, backoff.mayTry(at: now) else { return }
        do throws(SystemError) {
            let control = try ALSAControl(path: try ALSAControl.path(card: options.card))
            let names = Self.candidates(options.control)
            var found: ALSAControl.Element?
            for name in names.volume {
                if let element = try control.element(named: name), !element.isBoolean {
                    found = element
                    break
                }
            }
            guard let found else {
                throw SystemError(
                    function: "ioctl(SNDRV_CTL_IOCTL_ELEM_INFO)", subject: "\(control.path) ('\(options.control)')", errno: ENOENT,
                    hint: "The card has no volume element named \(names.volume.map { "'\($0)'" }.joined(separator: " or ")); amixer -c \(options.card) controls lists its elements.")
            }
            var toggle: ALSAControl.Element?
            for name in names.switch {
                if let element = try control.element(named: name), element.isBoolean {
                    toggle = element
                    break
                }
            }
            try control.subscribe()
            scale = ALSAVolumeScale(raw: found.range, tlv: try control.tlv(found))
            mixer = control
            volume = found
            mute = toggle
            backoff.connected(at: now)
            mixerRaw = try control.values(found).max()
            agreedRaw = nil
            needsSync = true
            let range = scale.decibelRange.map { "\(Self.decibels($0.min)) to \(Self.decibels($0.max))" } ?? "no dB range: linear"
            log("flywheel alsa: driving '\(found.name)' (\(range)) on \(cardName) (\(control.path))\(toggle.map { ", muting with '\($0.name)'" } ?? "").")
            sync()
        } catch {
            mixer = nil
            log("flywheel alsa: the mixer of \(cardName): \(ReconnectBackoff.clause(error.description)); \(backoff.failed(at: now))")
        }
    }

    static func decibels(_ hundredths: Int) -> String {
        hundredths <= ALSAVolumeScale.mute ? "mute" : MotionPlot.fixed(Double(hundredths) / 100, 2) + " dB"
    }

    func dropMixer(_ reason: String) {
        guard let mixer else { return }
        mixer.close()
        self.mixer = nil
        log("flywheel alsa: the mixer of \(cardName) (\(mixer.path)): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
    }

    /// The mixer's volume is now `raw`: flywheeld takes it unless it is what they agreed on.
    func mixerChanged(_ raw: Int) {
        mixerRaw = raw
        if raw != agreedRaw { needsSync = true }
        sync()
    }

    /// Tells flywheeld the mixer's volume, when it should be told and can take it.
    func sync() {
        guard needsSync, !awaitingEcho, let raw = mixerRaw, let mixer, let volume, daemon.isConnected, knowsCap, !volumeTurning else { return }
        needsSync = false
        let percent = scale.percent(raw: raw)
        if percent > volumeCap {
            // flywheeld cannot hold a volume above its cap: the mixer comes down to it, said once.
            if !saidAboveCap {
                saidAboveCap = true
                log("flywheel alsa: the mixer's volume \(percent) % is above flywheeld's volume cap \(volumeCap); bringing it down to \(volumeCap).")
            }
            return setMixer(volumeCap, mixer, volume)
        }
        daemon.send(#"{"cmd":"set","control":"volume","volume":\#(percent)}"#)
        agreedRaw = raw
        awaitingEcho = true
    }

    func setMixer(_ percent: Int, _ mixer: ALSAControl, _ volume: ALSAControl.Element) {
        let raw = scale.raw(percent: percent)
        agreedRaw = raw
        guard raw != mixerRaw else { return }
        do {
            try mixer.write(volume, raw: raw)
            writes += 1
            mixerRaw = raw
        } catch { dropMixer(error.description) }
    }

    /// A tap of a mute button: the switch off, or on again.
    func toggleMute() {
        guard let mixer else { return }
        guard let mute else {
            if !saidNoSwitch {
                saidNoSwitch = true
                log("flywheel alsa: '\(options.control)' on \(cardName) has no switch (\(Self.candidates(options.control).switch.map { "'\($0)'" }.joined(separator: " or "))), so the mute button does nothing.")
            }
            return
        }
        do {
            let on = try mixer.values(mute).contains { $0 != 0 }
            try mixer.write(mute, raw: on ? 0 : 1)
        } catch { dropMixer(error.description) }
    }

    // MARK: flywheeld's side

    func handleDaemon(_ line: [UInt8]) {
        guard let message = try? JSONParser.parse(line) else { return }
        switch message["class"]?.stringValue {
        case "state":
            if let cap = message["volume"]?["cap"]?.doubleValue { volumeCap = Int(cap) }
            knowsCap = true
            sync()
        case "volume":
            guard let percent = message["volume"]?.doubleValue.map({ Int($0) }) else { return }
            let phase = message["phase"]?.stringValue
            if phase == "began" { volumeTurning = true }
            if phase == "settled" { volumeTurning = false }
            if awaitingEcho, phase == "set" {
                awaitingEcho = false  // flywheeld took the mixer's volume (rounded to its step): the mixer keeps its own
                return sync()  // and flywheeld takes what the mixer moved to meanwhile
            }
            if let mixer, let volume { setMixer(percent, mixer, volume) }
            sync()
        case "button":
            guard message["action"]?.stringValue == "tap", let code = message["code"]?.doubleValue, options.muteButtons.contains(Int(code)) else { return }
            toggleMute()
        case "error":
            // A read-back refused: no echo comes, and the mixer's volume is not agreed.
            if awaitingEcho { agreedRaw = nil }
            awaitingEcho = false
            sync()
        default: break
        }
    }

    // MARK: The loop

    var pollRequest: pollfd? { mixer.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) } }

    var deadline: Nanoseconds? { mixer == nil ? backoff.nextAttemptNanoseconds : nil }

    func due(at now: Nanoseconds) { openMixer(at: now) }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard let mixer, mixer.fd == fd, let volume else { return }
        do {
            switch try mixer.readEvents() {
            case .wouldBlock:
                if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { dropMixer("the card went away") }
            case .processed(let events):
                if events.contains(where: { $0.numid == volume.numid && $0.removed }) { return dropMixer("'\(volume.name)' was removed") }
                if events.contains(where: { $0.numid == volume.numid && $0.valueChanged }), let raw = try mixer.values(volume).max() {
                    mixerChanged(raw)
                }
            }
        } catch {
            dropMixer(error.errno == ENODEV ? "the card went away (\(ReconnectBackoff.clause(error.description)))" : error.description)
        }
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon, self]
        daemon.due(at: MonotonicClock.now())
        openMixer(at: MonotonicClock.now())
        try loop.run()
        log("flywheel alsa: stopping; the mixer's volume written \(writes) times.")
    }
}
