/// The class of a message the daemon sends (its `class` field), and who receives it.
public enum MessageClass: String, Sendable, Hashable, CaseIterable {
    case hello, state, tempo, volume, scrub, mode, frame, button, device, gap, hint, error, pong, watch, tap

    /// The classes a client chooses with `watch`; the others are replies and errors.
    public static let watchable: [MessageClass] = [.tempo, .volume, .scrub, .mode, .button, .device, .gap, .hint, .frame]

    /// Whether every client receives it whatever it watches (replies and errors).
    /// (A switch, not a search of ``watchable``: asked for every message and client.)
    public var isAlwaysDelivered: Bool {
        switch self {
        case .tempo, .volume, .scrub, .mode, .button, .device, .gap, .hint, .frame: return false
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

    /// Whether this client receives `message`.
    public func wants(_ message: ServerMessage) -> Bool {
        if message.isFrame { return frames }
        if message.messageClass.isAlwaysDelivered { return true }
        return classes?.contains(message.messageClass) ?? true
    }
}
