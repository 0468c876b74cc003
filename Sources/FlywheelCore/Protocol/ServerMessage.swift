/// One message from the daemon, encoded once for every client: the per-connection `seq` is
/// spliced in between the class and the body, so only the digits differ from client to client.
///
/// Wire form: `{"class":"tempo","seq":17,"bpm":96,…,"time":12.345678901}\n`.
public struct ServerMessage: Sendable, Hashable {
    /// The message class.
    public let messageClass: MessageClass
    /// The whole line but the seq's digits: `{"class":"…","seq":` then `,…,"time":…}\n`. Every
    /// client's copy is these bytes with its digits at ``seqIndex``, written without being copied.
    public let wire: [UInt8]
    /// Where the seq's digits go in ``wire``.
    public let seqIndex: Int
    /// Whether it is a continuous frame (coalescable: the newest replaces an unsent older one).
    public let isFrame: Bool
    /// For frames, what they coalesce by (the control).
    public let coalescingKey: String?

    /// `,"seq":`, which ends the head of ``wire``.
    static let seqLabel = Array(",\"seq\":".utf8)

    /// Builds a message from its class, its fields (in order) and its time.
    init(messageClass: MessageClass, fields: [(String, JSONValue)], timeNanoseconds: Nanoseconds, isFrame: Bool, coalescingKey: String?) {
        self.messageClass = messageClass
        var wire: [UInt8] = []
        wire.reserveCapacity(128)
        wire.append(contentsOf: "{\"class\":".utf8)
        JSONValue.quote(messageClass.rawValue, into: &wire)
        wire.append(contentsOf: Self.seqLabel)
        seqIndex = wire.count
        for (key, value) in fields {
            wire.append(UInt8(ascii: ","))
            JSONValue.quote(key, into: &wire)
            wire.append(UInt8(ascii: ":"))
            value.encode(into: &wire)
        }
        wire.append(contentsOf: ",\"time\":".utf8)
        timeNanoseconds.appendSecondsText(into: &wire)
        wire.append(contentsOf: "}\n".utf8)
        self.wire = wire
        self.isFrame = isFrame
        self.coalescingKey = coalescingKey
    }

    /// `{"class":"…"` — the bytes before the seq.
    public var prefix: [UInt8] { Array(wire[..<(seqIndex - Self.seqLabel.count)]) }
    /// `,…,"time":…}\n` — the bytes after the seq.
    public var suffix: [UInt8] { Array(wire[seqIndex...]) }

    /// The bytes for one client (a copy: the server writes ``wire`` and the digits instead).
    public func bytes(seq: UInt64) -> [UInt8] {
        var out = Array(wire[..<seqIndex])
        out.reserveCapacity(wire.count + JSONValue.decimalCapacity)
        JSONValue.appendDecimal(seq, into: &out)
        out += wire[seqIndex...]
        return out
    }

    /// How many bytes the message is with `seq`'s digits.
    public func count(seq: UInt64) -> Int {
        var digits = 1
        var rest = seq / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return wire.count + digits
    }

    /// The message without a `seq`, as `flywheel replay` prints it.
    public var bytesWithoutSeq: [UInt8] { prefix + suffix }
}
