/// One message from the daemon, encoded once for every client: the per-connection `seq` is
/// spliced in between the class and the body, so only the digits differ from client to client.
///
/// Wire form: `{"class":"tempo","seq":17,"bpm":96,…,"time":12.345678901}\n`.
public struct ServerMessage: Sendable, Hashable {
    /// The message class (`tempo`, `scrub`, `frame`, `error`, …).
    public let className: String
    /// `{"class":"…"` — the bytes before the seq.
    public let prefix: [UInt8]
    /// `,…,"time":…}\n` — the bytes after the seq.
    public let suffix: [UInt8]
    /// Whether it is a continuous frame (coalescable: the newest replaces an unsent older one).
    public let isFrame: Bool
    /// For frames, what they coalesce by (the control).
    public let coalescingKey: String?

    /// Builds a message from its class, its fields (in order) and its time.
    public init(className: String, fields: [(String, JSONValue)], timeNanoseconds: Nanoseconds, isFrame: Bool = false, coalescingKey: String? = nil) {
        self.className = className
        var head = ""
        JSONValue.object([("class", .string(className))]).encode(into: &head)
        head.removeLast()  // the closing brace
        var tail = ""
        for (key, value) in fields + [("time", .number(timeNanoseconds.secondsText))] {
            tail += ","
            JSONValue.quote(key, into: &tail)
            tail += ":"
            value.encode(into: &tail)
        }
        tail += "}\n"
        prefix = Array(head.utf8)
        suffix = Array(tail.utf8)
        self.isFrame = isFrame
        self.coalescingKey = coalescingKey
    }

    /// A control event as a message.
    public init(_ event: ControlEvent) {
        guard case .object(let pairs) = event.json else { preconditionFailure("control events are objects") }
        let className = pairs.first?.1.stringValue ?? "event"
        let fields = pairs.dropFirst().filter { $0.0 != "time" }
        var key: String?
        if case .frame(let control, _, _, _, _) = event { key = control.rawValue }
        self.init(className: className, fields: Array(fields), timeNanoseconds: event.timeNanoseconds, isFrame: event.isFrame, coalescingKey: key)
    }

    /// The bytes for one client.
    public func bytes(seq: UInt64) -> [UInt8] {
        var out = prefix
        out.reserveCapacity(prefix.count + suffix.count + 28)
        out += Array(",\"seq\":\(seq)".utf8)
        out += suffix
        return out
    }

    /// The message without a `seq`, as `flywheel replay` prints it.
    public var bytesWithoutSeq: [UInt8] { prefix + suffix }
}
