import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel keys`: the knobs' steps and the buttons as key events of a virtual keyboard, from a
/// ``KeyMap``, on the bridges' ``SessionLoop``. One key press (down and up) per step flywheeld
/// reports — the volume's change over its step, the tempo's dial value, the navigator's detents —
/// so an accelerated turn repeats the key (at most ``maximumRepeats`` a message); a value a client
/// `set` presses nothing. A mapped button's key is held as long as the button is, and released
/// when flywheeld goes away, so no key stays down. flywheeld reconnects with backoff.
final class KeysBridge {
    /// The most key presses one message makes.
    static let maximumRepeats = 64

    let map: KeyMap
    let log: (String) -> Void
    let daemon: DaemonLink
    /// Writes a key down (true) or up.
    let key: (UInt16, Bool) -> Void
    /// The keys held down now (by buttons).
    private(set) var held: Set<UInt16> = []
    private var volume: Int?
    private var volumeStep = 1
    private var tempo: Int?
    /// Key presses made, for the log on exit.
    private(set) var presses = 0

    init(flywheel: String, map: KeyMap, log: @escaping (String) -> Void, key: @escaping (UInt16, Bool) -> Void) {
        self.map = map
        self.log = log
        self.key = key
        daemon = DaemonLink(
            path: flywheel, name: "flywheel keys",
            request: [#"{"cmd":"watch","classes":["volume","tempo","navigate","button"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in handle($0) }
        daemon.onConnected = { [unowned self] _ in
            volume = nil
            tempo = nil
            log("flywheel keys: connected to flywheeld at \(flywheel).")
        }
        daemon.onDropped = { [unowned self] in releaseAll() }
    }

    /// Every held key up.
    func releaseAll() {
        for code in held.sorted() { key(code, false) }
        held = []
    }

    /// `steps` steps of `control`: its key pressed and released once each.
    func step(_ control: Control, _ steps: Int) {
        guard steps != 0, let code = map.key(control, steps) else { return }
        for _ in 0..<min(abs(steps), Self.maximumRepeats) {
            key(code, true)
            key(code, false)
            presses += 1
        }
    }

    func handle(_ line: [UInt8]) {
        guard let message = try? JSONParser.parse(line) else { return }
        switch message["class"]?.stringValue {
        case "state":
            if let value = message["volume"]?["volume"]?.doubleValue { volume = Int(value) }
            if let value = message["volume"]?["step"]?.doubleValue { volumeStep = max(1, Int(value)) }
            if let value = message["tempo"]?["value"]?.doubleValue { tempo = Int(value) }
        case "volume":
            guard let value = message["volume"]?.doubleValue.map({ Int($0) }) else { return }
            defer { volume = value }
            guard let last = volume, message["phase"]?.stringValue != "set" else { return }
            step(.volume, (value - last) / volumeStep)
        case "tempo":
            guard let value = message["value"]?.doubleValue.map({ Int($0) }) else { return }
            defer { tempo = value }
            guard let last = tempo, message["phase"]?.stringValue != "set" else { return }
            step(.tempo, value - last)
        case "navigate":
            step(.navigate, Int(max(-1_000, min(1_000, message["steps"]?.doubleValue ?? 0))))
        case "button":
            guard let number = message["code"]?.doubleValue, number >= 0, number < 0x300,
                let code = map.keys[.button(UInt16(number))]
            else { return }
            switch message["action"]?.stringValue {
            case "press":
                guard !held.contains(code) else { return }
                held.insert(code)
                key(code, true)
                presses += 1
            case "release":
                guard held.contains(code) else { return }
                held.remove(code)
                key(code, false)
            default: break
            }
        default: break
        }
    }

    /// Runs until SIGTERM or SIGINT; every held key is released on the way out.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon]
        daemon.due(at: MonotonicClock.now())
        try loop.run()
        releaseAll()
        log("flywheel keys: stopping; \(presses) key presses made.")
    }
}
