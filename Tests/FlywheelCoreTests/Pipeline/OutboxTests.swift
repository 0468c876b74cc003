import Testing
@testable import FlywheelCore

/// A turn's messages as the daemon keeps them: control events encoded into the outbox's own
/// bytes, other messages as they are, in the order they came, and nothing left after a turn.
@Suite("Outbox")
struct OutboxTests {
    static let tempo = ControlEvent.tempo(bpm: 96, value: 76, phase: .moved, timeNanoseconds: 12_000_250_000)
    static let frame = ControlEvent.frame(control: .scrub, value: 1.5, offset: -0.25, velocity: 3, timeNanoseconds: 13_000_000_000)
    static let pong = ServerMessage(.pong, at: 5)

    @Test("encoded events and whole messages come out in the order they went in, each as the one encoder writes it")
    func orderAcrossKinds() {
        let outbox = Outbox()
        outbox.append(Self.tempo)
        outbox.append(Self.pong)
        outbox.append(Self.frame)
        #expect(outbox.count == 3)
        #expect(outbox.messages == [
            ServerMessage(.control(Self.tempo), at: Self.tempo.timeNanoseconds), Self.pong,
            ServerMessage(.control(Self.frame), at: Self.frame.timeNanoseconds),
        ])
        #expect((0..<3).map(outbox.messageClass(at:)) == [.tempo, .pong, .frame])
    }

    @Test("an encoded event's bytes and seq index are the message's; a whole message has none of its own")
    func encodedWire() {
        let outbox = Outbox()
        outbox.append(Self.pong)
        outbox.append(Self.frame)
        #expect(outbox.encodedWire(at: 0) == nil)
        let expected = ServerMessage(.control(Self.frame), at: Self.frame.timeNanoseconds)
        let line = outbox.encodedWire(at: 1)
        #expect(line.map { Array($0.wire) } == expected.wire)
        #expect(line?.seqIndex == expected.seqIndex)
        // Copied out, a frame still coalesces by its control.
        #expect(outbox.message(at: 1).isFrame)
        #expect(outbox.message(at: 1).coalescingKey == "scrub")
    }

    @Test("emptied, it holds nothing of the turn before, and fills again from the start")
    func removeAll() {
        let outbox = Outbox()
        for _ in 0..<100 { outbox.append(Self.frame) }  // past its first room for bytes and entries
        outbox.append(Self.pong)
        outbox.removeAll()
        #expect(outbox.isEmpty)
        #expect(outbox.messages.isEmpty)
        outbox.append(Self.tempo)
        #expect(outbox.messages == [ServerMessage(.control(Self.tempo), at: Self.tempo.timeNanoseconds)])
    }

    @Test("its bytes lent out (as a broadcast does) stay where they are, and once returned it takes messages again")
    func lending() {
        let outbox = Outbox()
        outbox.append(Self.tempo)
        outbox.beginLending()
        let before = outbox.encodedWire(at: 0)
        outbox.beginLending()  // lending nests
        outbox.endLending()
        #expect(outbox.encodedWire(at: 0)?.wire.baseAddress == before?.wire.baseAddress)
        outbox.endLending()
        outbox.append(Self.pong)
        outbox.removeAll()
        #expect(outbox.isEmpty)
    }
}
