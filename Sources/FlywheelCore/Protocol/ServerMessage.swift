/// One message from the daemon, encoded once for every client: the per-connection `seq` is
/// spliced in between the class and the body, so only the digits differ from client to client.
///
/// Wire form: `{"class":"tempo","seq":17,"bpm":96,…,"time":12.345678901}\n`.
public struct ServerMessage: Sendable, Hashable {
    /// The message class.
    public let messageClass: MessageClass
    /// `{"class":"…"` — the bytes before the seq.
    public let prefix: [UInt8]
    /// `,…,"time":…}\n` — the bytes after the seq.
    public let suffix: [UInt8]
    /// Whether it is a continuous frame (coalescable: the newest replaces an unsent older one).
    public let isFrame: Bool
    /// For frames, what they coalesce by (the control).
    public let coalescingKey: String?

    /// Builds a message from its class, its fields (in order) and its time.
    init(messageClass: MessageClass, fields: [(String, JSONValue)], timeNanoseconds: Nanoseconds, isFrame: Bool, coalescingKey: String?) {
        self.messageClass = messageClass
        var head = ""
        JSONValue.object([("class", .string(messageClass.rawValue))]).encode(into: &head)
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
