import FlywheelCore

/// `flywheel watch`'s lines for people: one per message, times from the first event (or the time of
/// day), buttons by name, each control in its own units (BPM, m:ss.t, %), frames with their offset
/// and velocity, replies and device changes as sentences. (`--raw` prints the wire instead.)
struct EventText {
    /// How times are shown.
    enum Clock: Equatable {
        /// Seconds since the first event, `12.345`.
        case relative
        /// The local time of day, `HH:MM:SS.mmm`; `timeOfDay` turns CLOCK_MONOTONIC seconds into it.
        case wall
    }

    let clock: Clock
    /// CLOCK_MONOTONIC seconds → `HH:MM:SS.mmm` (with `.wall`).
    let timeOfDay: (Double) -> String
    /// The first event's time: the zero of relative times.
    private(set) var zero: Double?
    /// Whether a scrub with no song length has been shown (what sets one is said the first time).
    private(set) var saidNoLength = false
    /// What sets a song length, said after the first scrub line without one.
    static let noLengthHint = "(no song length: `flywheel mpd` or flywheeld --scrub-duration S sets it)"

    init(clock: Clock = .relative, timeOfDay: @escaping (Double) -> String = { _ in "" }) {
        self.clock = clock
        self.timeOfDay = timeOfDay
    }

    /// One readable line for a message from the daemon (a line that is not a message is kept).
    mutating func line(_ wire: String) -> String {
        guard let message = try? JSONParser.parse(Array(wire.utf8)), let className = message["class"]?.stringValue else { return wire }
        if className == "hello" { return Self.hello(message) }
        let stamp = time(message["time"]?.doubleValue)
        var (label, text) = Self.body(className, message)
        if className == "scrub", !saidNoLength, message["duration"]?.doubleValue == 0 {
            saidNoLength = true
            text += " " + Self.noLengthHint
        }
        return stamp + "  " + label.padded(to: 7) + " " + text
    }

    /// The time column.
    mutating func time(_ seconds: Double?) -> String {
        guard let seconds else { return "?".padded(to: 12, left: true) }
        switch clock {
        case .wall: return timeOfDay(seconds)
        case .relative:
            if zero == nil { zero = seconds }
            return Self.fixed(seconds - zero!, 3).padded(to: 12, left: true)
        }
    }

    static func hello(_ message: JSONValue) -> String {
        var text = "connected to flywheeld \(message["version"]?.stringValue ?? "?") (protocol \(number(message["protocol"]))\(message["minor"].map { "." + number($0) } ?? ""))"
        if case .array(let devices)? = message["devices"], !devices.isEmpty {
            text += "; devices: " + devices.map(device).joined(separator: "; ")
        } else {
            text += "; no devices yet"
        }
        return text
    }

    /// The label and the rest of a line.
    static func body(_ className: String, _ m: JSONValue) -> (String, String) {
        func string(_ key: String) -> String { m[key]?.stringValue ?? "?" }
        switch className {
        case "tempo": return ("tempo", "\(number(m["bpm"])) BPM  \(string("phase"))")
        case "volume": return ("volume", "\(number(m["volume"])) %  \(string("phase"))")
        case "scrub": return ("scrub", "\(clock(m["position"]?.doubleValue)) / \(length(m["duration"]?.doubleValue))  \(string("phase"))")
        case "mode": return ("mode", "knobs that follow the mode now drive \(string("mode"))")
        case "navigate":
            let steps = Int(m["steps"]?.doubleValue ?? 0)
            return ("navigate", steps >= 0 ? "next track\(steps > 1 ? " ×\(steps)" : "")" : "previous track\(steps < -1 ? " ×\(-steps)" : "")")
        case "button": return ("button", "\(keyName(m["code"])) \(string("action"))")
        case "frame": return ("frame", frame(m))
        case "device": return ("device", "\(string("action")): \(device(m))")
        case "gap": return ("gap", "input lost on \(string("device")) (\(string("reason"))); counting goes on from here")
        case "hint":
            let towards = (m["direction"]?.doubleValue ?? 0) > 0 ? "towards the end" : "towards the start"
            return ("hint", "\(string("control")) pushed \(towards) (peak \(fixed(m["peak"]?.doubleValue ?? 0, 2)) detent, \(fixed(m["duration"]?.doubleValue ?? 0, 2)) s)")
        case "state": return ("state", state(m))
        case "pong": return ("pong", "flywheeld is there")
        case "tap":
            if let bpm = m["bpm"], bpm != .null { return ("tap", "tap tempo \(number(bpm)) BPM") }
            return ("tap", "tap counted (a tempo from the third tap on)")
        case "watch":
            let classes: String
            if case .array(let names)? = m["classes"] { classes = names.compactMap(\.stringValue).joined(separator: ", ") } else { classes = "every class" }
            return ("watch", "watching \(classes)" + (m["frames"] == .bool(true) ? ", with frames" : ""))
        case "error": return ("error", "\(string("code")): \(string("message"))")
        default: return (className, m.encoded())
        }
    }

    /// A frame in its control's units, with the knob's offset and velocity.
    static func frame(_ m: JSONValue) -> String {
        let control = m["control"]?.stringValue ?? "?"
        let value = m["value"]?.doubleValue
        let shown: String
        switch control {
        case "tempo": shown = "\(value.map { fixed($0, 1) } ?? "?") BPM"
        case "volume": shown = "\(value.map { fixed($0, 1) } ?? "?") %"
        case "scrub": shown = clock(value)
        default: shown = value.map { fixed($0, 2) } ?? "?"
        }
        let offset = m["offset"]?.doubleValue ?? 0
        let velocity = m["velocity"]?.doubleValue ?? 0
        let unit = control == "mode" ? "segment" : "detent"  // the mode switch moves in segments
        return "\(control) \(shown)  offset \(signed(offset)) \(unit)  velocity \(signed(velocity)) \(unit)s/s"
    }

    static func state(_ m: JSONValue) -> String {
        var parts: [String] = []
        if let tempo = m["tempo"] { parts.append("tempo \(number(tempo["bpm"])) BPM") }
        if let scrub = m["scrub"] { parts.append("scrub \(clock(scrub["position"]?.doubleValue)) / \(length(scrub["duration"]?.doubleValue))") }
        if let volume = m["volume"] { parts.append("volume \(number(volume["volume"])) %") }
        if let mode = m["mode"]?["active"]?.stringValue { parts.append("mode \(mode)") }
        return parts.joined(separator: ", ")
    }

    /// The content's length as m:ss.t, or `no length` when none is set (0).
    static func length(_ seconds: Double?) -> String { seconds == 0 ? "no length" : clock(seconds) }

    /// A device as `name (kind, path)`.
    static func device(_ d: JSONValue) -> String {
        "\(d["name"]?.stringValue ?? "?") (\(d["kind"]?.stringValue ?? "?"), \(d["path"]?.stringValue ?? "?"))"
    }

    /// A key code by its evdev name (`BTN_0`), else `key N`.
    static func keyName(_ value: JSONValue?) -> String {
        guard let code = value?.doubleValue, code >= 0, code < 0x300, code == code.rounded() else { return "key ?" }
        let name = EvdevNames.keyName(UInt16(code))
        return name.hasPrefix("0x") ? "key \(Int(code))" : name
    }

    /// One way to write every number: whole numbers without a point, others to one decimal.
    static func number(_ value: JSONValue?) -> String {
        guard let d = value?.doubleValue else { return "?" }
        return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : fixed(d, 1)
    }

    /// `m:ss.t`.
    static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "?" }
        let sign = seconds < 0 ? "-" : ""
        let tenths = Int((abs(seconds) * 10).rounded())
        let whole = tenths / 10
        let s = whole % 60
        return "\(sign)\(whole / 60):\(s < 10 ? "0" : "")\(s).\(tenths % 10)"
    }

    /// A signed number to two decimals, `+6.73`.
    static func signed(_ value: Double) -> String {
        let text = fixed(value, 2)
        return text.hasPrefix("-") ? text : "+" + text
    }

    static func fixed(_ value: Double, _ digits: Int) -> String { MotionPlot.fixed(value, digits) }
}

extension String {
    /// Padded with spaces to `width` (on the left with `left`).
    func padded(to width: Int, left: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(0, width - count))
        return left ? pad + self : self + pad
    }
}
