import FlywheelCore
import FlywheelDaemon

/// What `flywheel keys --map` binds: a knob's steps or a button, each to a key.
struct KeyMap: Equatable {
    /// Where key presses come from.
    enum Source: Hashable {
        /// A step of a control, up (`+1`) or down (`-1`): `volume+`, `navigate-`.
        case step(Control, Int)
        /// Any control's step without a binding of its own: `cw` (+1), `ccw` (−1).
        case anyStep(Int)
        /// A button (key code), held as long as it is.
        case button(UInt16)
    }

    /// The controls whose steps can press keys.
    static let steppedControls: [Control] = [.volume, .tempo, .navigate]

    var keys: [Source: UInt16] = [:]

    /// The key for one step of `control` in `direction` (its own, else `cw`/`ccw`).
    func key(_ control: Control, _ direction: Int) -> UInt16? {
        keys[.step(control, direction.signum())] ?? keys[.anyStep(direction.signum())]
    }

    /// Every key the map may press.
    var allKeys: Set<UInt16> { Set(keys.values) }

    /// `SOURCE=KEY,SOURCE=KEY…` added to the map: SOURCE is `cw`, `ccw`, `CONTROL+`/`CONTROL-`
    /// (volume, tempo, navigate) or a button (BTN_0…BTN_9 or a key code); KEY a name `keyCode` knows.
    mutating func add(_ text: String, keyCode: (String) -> UInt16?) throws(ToolError) {
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let source = Self.source(parts[0]) else {
                let controls = Self.steppedControls.map { "\($0.rawValue)+, \($0.rawValue)-" }.joined(separator: ", ")
                throw .usage("--map takes SOURCE=KEY with SOURCE cw, ccw, \(controls) or a button (BTN_0…BTN_9 or a key code), not '\(pair)'")
            }
            guard let key = keyCode(parts[1]) else {
                throw .usage("--map's key must be a KEY_* (or BTN_*) name from linux/input-event-codes.h such as KEY_VOLUMEUP, not '\(parts[1])'")
            }
            keys[source] = key
        }
    }

    static func source(_ name: String) -> Source? {
        switch name {
        case "cw": return .anyStep(1)
        case "ccw": return .anyStep(-1)
        default: break
        }
        if let last = name.last, last == "+" || last == "-", let control = Control(rawValue: String(name.dropLast())), steppedControls.contains(control) {
            return .step(control, last == "+" ? 1 : -1)
        }
        return KeyCode.button(named: name).map(Source.button)
    }
}
