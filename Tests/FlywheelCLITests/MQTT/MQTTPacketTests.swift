@testable import FlywheelCLI
import Testing

/// MQTT 3.1.1's encoding, checked against the standard's own examples (OASIS MQTT 3.1.1, 2.2.3
/// "Remaining Length" and 3.1 CONNECT's example), and the reader's bounds.
@Suite("MQTT packets")
struct MQTTPacketTests {
    @Test("the remaining length is the standard's: 0, 127, 128, 16383, 16384, 2097151, 2097152, 268435455")
    func remainingLength() {
        #expect(MQTTPacket.remainingLength(0) == [0x00])
        #expect(MQTTPacket.remainingLength(127) == [0x7F])
        #expect(MQTTPacket.remainingLength(128) == [0x80, 0x01])
        #expect(MQTTPacket.remainingLength(16_383) == [0xFF, 0x7F])
        #expect(MQTTPacket.remainingLength(16_384) == [0x80, 0x80, 0x01])
        #expect(MQTTPacket.remainingLength(2_097_151) == [0xFF, 0xFF, 0x7F])
        #expect(MQTTPacket.remainingLength(2_097_152) == [0x80, 0x80, 0x80, 0x01])
        #expect(MQTTPacket.remainingLength(268_435_455) == [0xFF, 0xFF, 0xFF, 0x7F])
    }

    @Test("CONNECT: protocol name MQTT, level 4, clean session, a retained QoS 1 will, keep-alive, client id")
    func connect() {
        let bytes = MQTTPacket.connect(clientID: "fw", keepAliveSeconds: 30, will: ("flywheel/status", Array("offline".utf8)), username: nil, password: nil).encoded()
        #expect(Array(bytes.prefix(2)) == [0x10, UInt8(bytes.count - 2)])
        #expect(Array(bytes[2..<9]) == [0, 4, 0x4D, 0x51, 0x54, 0x54, 4])  // "MQTT", level 4
        #expect(bytes[9] == 0x02 | 0x04 | 0x08 | 0x20)  // clean session, will, will QoS 1, will retain
        #expect(Array(bytes[10..<12]) == [0, 30])
        #expect(Array(bytes[12..<16]) == [0, 2, 0x66, 0x77])
    }

    @Test("packets cut anywhere by the reads come out whole; a packet over the bound and a length of five bytes are errors")
    func reader() throws {
        let stream = MQTTPacket.connack(returnCode: 0).encoded()
            + MQTTPacket.publish(topic: "flywheel/tempo/set", payload: Array("96.5".utf8), qos: 1, retain: false, packetID: 7, duplicate: false).encoded()
            + MQTTPacket.pingresp.encoded()
        for size in 1...stream.count {
            var reader = MQTTReader()
            var packets: [MQTTPacket] = []
            for start in stride(from: 0, to: stream.count, by: size) {
                reader.append(stream[start..<min(stream.count, start + size)])
                while let packet = try reader.next() { packets.append(packet) }
            }
            #expect(packets == [.connack(returnCode: 0), .publish(topic: "flywheel/tempo/set", payload: Array("96.5".utf8), qos: 1, retain: false, packetID: 7, duplicate: false), .pingresp], "\(size)")
        }
        var big = MQTTReader(maximumPacketBytes: 1000)
        big.append([0x30] + MQTTPacket.remainingLength(100_000_000))
        #expect(throws: MQTTReader.Failure.tooLong(100_000_000)) { try big.next() }
        var broken = MQTTReader()
        broken.append([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(throws: MQTTReader.Failure.malformedLength) { try broken.next() }
    }
}
