/// MQTT 3.1.1 packets (OASIS standard, 2014), the few the bridge speaks: CONNECT with a will,
/// CONNACK, PUBLISH at QoS 0 and 1, PUBACK, SUBSCRIBE, SUBACK, PINGREQ, PINGRESP and DISCONNECT.
/// Pure bytes in and out: ``MQTTReader`` cuts a byte stream into packets with a bound.
enum MQTTPacket: Equatable {
    case connect(clientID: String, keepAliveSeconds: UInt16, will: (topic: String, payload: [UInt8])?, username: String?, password: String?)
    case connack(returnCode: UInt8)
    case publish(topic: String, payload: [UInt8], qos: UInt8, retain: Bool, packetID: UInt16?, duplicate: Bool)
    case puback(packetID: UInt16)
    case subscribe(packetID: UInt16, topics: [(String, UInt8)])
    case suback(packetID: UInt16, codes: [UInt8])
    case pingreq
    case pingresp
    case disconnect
    /// A packet of another type (kept whole, ignored by the bridge).
    case other(type: UInt8)

    static func == (lhs: MQTTPacket, rhs: MQTTPacket) -> Bool { lhs.encoded() == rhs.encoded() }

    /// The packet's bytes.
    func encoded() -> [UInt8] {
        var body: [UInt8] = []
        let first: UInt8
        switch self {
        case .connect(let clientID, let keepAlive, let will, let username, let password):
            first = 0x10
            body += Self.string("MQTT") + [4]  // protocol name and level (3.1.1)
            var flags: UInt8 = 0x02  // clean session
            if will != nil { flags |= 0x04 | 0x08 | 0x20 }  // will, QoS 1, retained
            if username != nil { flags |= 0x80 }
            if password != nil { flags |= 0x40 }
            body += [flags, UInt8(keepAlive >> 8), UInt8(keepAlive & 0xFF)]
            body += Self.string(clientID)
            if let will { body += Self.string(will.topic) + Self.bytes(will.payload) }
            if let username { body += Self.string(username) }
            if let password { body += Self.string(password) }
        case .connack(let code):
            first = 0x20
            body = [0, code]
        case .publish(let topic, let payload, let qos, let retain, let packetID, let duplicate):
            first = 0x30 | (duplicate ? 0x08 : 0) | (qos << 1) | (retain ? 1 : 0)
            body = Self.string(topic)
            if qos > 0, let packetID { body += [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] }
            body += payload
        case .puback(let id):
            first = 0x40
            body = [UInt8(id >> 8), UInt8(id & 0xFF)]
        case .subscribe(let id, let topics):
            first = 0x82
            body = [UInt8(id >> 8), UInt8(id & 0xFF)]
            for (topic, qos) in topics { body += Self.string(topic) + [qos] }
        case .suback(let id, let codes):
            first = 0x90
            body = [UInt8(id >> 8), UInt8(id & 0xFF)] + codes
        case .pingreq: first = 0xC0
        case .pingresp: first = 0xD0
        case .disconnect: first = 0xE0
        case .other(let type): first = type << 4
        }
        return [first] + Self.remainingLength(body.count) + body
    }

    static func string(_ text: String) -> [UInt8] { bytes(Array(text.utf8)) }

    static func bytes(_ data: [UInt8]) -> [UInt8] {
        let count = min(data.count, 65_535)
        return [UInt8(count >> 8), UInt8(count & 0xFF)] + data.prefix(count)
    }

    /// The variable-length "remaining length" (1 to 4 bytes, 7 bits each).
    static func remainingLength(_ value: Int) -> [UInt8] {
        var out: [UInt8] = []
        var rest = value
        repeat {
            var byte = UInt8(rest % 128)
            rest /= 128
            if rest > 0 { byte |= 0x80 }
            out.append(byte)
        } while rest > 0
        return out
    }

    /// A packet from its first byte and body, or nil when the body does not hold what its type needs.
    static func decode(first: UInt8, body: ArraySlice<UInt8>) -> MQTTPacket? {
        var reader = FieldReader(bytes: body)
        switch first >> 4 {
        case 2:
            guard body.count == 2 else { return nil }
            return .connack(returnCode: body[body.startIndex + 1])
        case 3:
            let qos = (first >> 1) & 0x3
            guard qos < 3, let topic = reader.string() else { return nil }
            var id: UInt16?
            if qos > 0 { guard let value = reader.u16() else { return nil }; id = value }
            return .publish(topic: topic, payload: Array(reader.rest), qos: qos, retain: first & 1 != 0, packetID: id, duplicate: first & 0x08 != 0)
        case 4:
            guard let id = reader.u16() else { return nil }
            return .puback(packetID: id)
        case 9:
            guard let id = reader.u16() else { return nil }
            return .suback(packetID: id, codes: Array(reader.rest))
        case 12: return .pingreq
        case 13: return .pingresp
        case 14: return .disconnect
        default: return .other(type: first >> 4)
        }
    }

    struct FieldReader {
        var bytes: ArraySlice<UInt8>
        mutating func u16() -> UInt16? {
            guard bytes.count >= 2 else { return nil }
            defer { bytes = bytes.dropFirst(2) }
            return UInt16(bytes[bytes.startIndex]) << 8 | UInt16(bytes[bytes.startIndex + 1])
        }
        mutating func string() -> String? {
            guard let length = u16(), bytes.count >= Int(length) else { return nil }
            defer { bytes = bytes.dropFirst(Int(length)) }
            return String(decoding: bytes.prefix(Int(length)), as: UTF8.self)
        }
        var rest: ArraySlice<UInt8> { bytes }
    }
}

/// MQTT packets cut from a byte stream, each at most ``maximumPacketBytes``: a longer one (or a
/// malformed length) is an error, never more memory.
struct MQTTReader {
    /// The largest packet taken (64 KiB: the bridge's topics and payloads are short).
    let maximumPacketBytes: Int
    private var buffer: [UInt8] = []

    init(maximumPacketBytes: Int = 65_536) { self.maximumPacketBytes = maximumPacketBytes }

    enum Failure: Error, Equatable { case tooLong(Int), malformedLength, malformedPacket(UInt8) }

    mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 { buffer.append(contentsOf: bytes) }

    /// The next whole packet, nil until more bytes come.
    mutating func next() throws(Failure) -> MQTTPacket? {
        guard buffer.count >= 2 else { return nil }
        var length = 0, multiplier = 1, index = 1
        while true {
            guard index < buffer.count else { return nil }
            let byte = buffer[index]
            length += Int(byte & 0x7F) * multiplier
            index += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            guard index <= 4 else { throw .malformedLength }
        }
        guard length <= maximumPacketBytes else { throw .tooLong(length) }
        guard buffer.count >= index + length else { return nil }
        let first = buffer[0]
        let packet = MQTTPacket.decode(first: first, body: buffer[index..<(index + length)])
        buffer.removeSubrange(..<(index + length))
        guard let packet else { throw .malformedPacket(first) }
        return packet
    }
}
