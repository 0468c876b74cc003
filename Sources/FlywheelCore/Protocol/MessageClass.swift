/// The class of a message the daemon sends (its `class` field), and who receives it.
public enum MessageClass: String, Sendable, Hashable, CaseIterable {
    case hello, state, tempo, volume, scrub, mode, frame, button, device, gap, hint, error, pong, watch, tap, navigate

    /// The classes a client chooses with `watch`; the others are replies and errors.
    public static let watchable: [MessageClass] = [.tempo, .volume, .scrub, .mode, .navigate, .button, .device, .gap, .hint, .frame]

    /// This class's bit in a ``Subscription/classMask``.
    public var bit: UInt32 {
        switch self {
        case .hello: return 1 << 0
        case .state: return 1 << 1
        case .tempo: return 1 << 2
        case .volume: return 1 << 3
        case .scrub: return 1 << 4
        case .mode: return 1 << 5
        case .frame: return 1 << 6
        case .button: return 1 << 7
        case .device: return 1 << 8
        case .gap: return 1 << 9
        case .hint: return 1 << 10
        case .error: return 1 << 11
        case .pong: return 1 << 12
        case .watch: return 1 << 13
        case .tap: return 1 << 14
        case .navigate: return 1 << 15
        }
    }

    /// Whether every client receives it whatever it watches (replies and errors).
    /// (A switch, not a search of ``watchable``: asked for every message and client.)
    package var isAlwaysDelivered: Bool {
        switch self {
        case .tempo, .volume, .scrub, .mode, .navigate, .button, .device, .gap, .hint, .frame: return false
        case .hello, .state, .error, .pong, .watch, .tap: return true
        }
    }
}

/// What one client receives: the classes it watches (nil: every class) and whether frames.
public struct Subscription: Sendable, Hashable {
    /// The watched classes; nil for all of them.
    public var classes: Set<MessageClass>?
    /// Whether it wants continuous frames (frames are never sent otherwise).
    public var frames: Bool

    /// A subscription; the default is what a new client has: every class, no frames.
    public init(classes: Set<MessageClass>? = nil, frames: Bool = false) {
        self.classes = classes
        self.frames = frames
    }

    /// The classes it receives as bits (``MessageClass/bit``; `frame`'s set when it wants frames):
    /// what a server keeps per client, so that asking whether one wants a message is an AND, not
    /// a hash. `wants(m)` is `classMask & m.messageClass.bit != 0`.
    public var classMask: UInt32 {
        MessageClass.allCases.reduce(0) { mask, kind in
            let wanted = kind == .frame ? frames : kind.isAlwaysDelivered || (classes?.contains(kind) ?? true)
            return wanted ? mask | kind.bit : mask
        }
    }

    /// Whether this client receives `message`.
    public func wants(_ message: ServerMessage) -> Bool {
        if message.isFrame { return frames }
        if message.messageClass.isAlwaysDelivered { return true }
        return classes?.contains(message.messageClass) ?? true
    }
}
