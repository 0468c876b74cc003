import FlywheelCore

/// One change of a button's switch contact (raw, bounce included) or of its debounced state.
public struct ButtonEdge: Hashable, Sendable {
    /// When, in nanoseconds.
    public var timeNanoseconds: Nanoseconds
    /// The button's key code.
    public var code: UInt16
    /// The new state: pressed (contact closed) or released.
    public var pressed: Bool

    /// Creates an edge.
    public init(timeNanoseconds: Nanoseconds, code: UInt16, pressed: Bool) {
        self.timeNanoseconds = timeNanoseconds
        self.code = code
        self.pressed = pressed
    }
}

/// Push-button switch contacts: the same bounce model as the A/B lines.
enum ButtonContacts {
    /// The raw contact edges of a series of presses and releases: each action's change, then
    /// its bounce, over before that button's next action. Sorted by time (ties keep action order).
    static func edges(
        of actions: [ButtonAction], end: Nanoseconds, bounce: BounceSettings, random: inout SeededGenerator
    ) -> [ButtonEdge] {
        var edges: [(edge: ButtonEdge, order: Int)] = []
        for (i, action) in actions.enumerated() {
            let next = actions[(i + 1)...].first(where: { $0.code == action.code })?.timeNanoseconds ?? end
            let time = action.timeNanoseconds
            edges.append((ButtonEdge(timeNanoseconds: time, code: action.code, pressed: action.pressed), edges.count))
            var level = action.pressed
            for offset in Bounce.toggleOffsets(bounce, maxWindow: max(0, (next - time) * 3 / 4), random: &random) {
                level.toggle()
                edges.append((ButtonEdge(timeNanoseconds: time + offset, code: action.code, pressed: level), edges.count))
            }
        }
        edges.sort { ($0.edge.timeNanoseconds, $0.order) < ($1.edge.timeNanoseconds, $1.order) }
        return edges.map(\.edge)
    }

    /// Debounces raw edges the way gpio-keys (`debounce-interval`) and button firmware do: every
    /// edge restarts a timer; when it runs out, the contact's level then is taken, and reported
    /// if it differs from the last reported state (buttons start released).
    static func debounced(_ edges: [ButtonEdge], interval: Nanoseconds) -> [ButtonEdge] {
        var result: [(edge: ButtonEdge, order: Int)] = []
        var codes: [UInt16] = []
        for edge in edges where !codes.contains(edge.code) { codes.append(edge.code) }
        for code in codes {
            let own = edges.filter { $0.code == code }
            var reported = false
            for (i, edge) in own.enumerated() {
                let burstEnds = i + 1 == own.count || own[i + 1].timeNanoseconds - edge.timeNanoseconds >= interval
                if burstEnds, edge.pressed != reported {
                    reported = edge.pressed
                    result.append(
                        (ButtonEdge(timeNanoseconds: edge.timeNanoseconds + interval, code: code, pressed: reported),
                         result.count))
                }
            }
        }
        result.sort { ($0.edge.timeNanoseconds, $0.order) < ($1.edge.timeNanoseconds, $1.order) }
        return result.map(\.edge)
    }
}
