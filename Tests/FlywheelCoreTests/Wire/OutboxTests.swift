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

    @Test("lent out one by one, each message gives its own bytes, seq index and class in order, and its copy only when asked")
    func lendEach() {
        let outbox = Outbox()
        outbox.append(Self.tempo)
        outbox.append(Self.pong)
        outbox.append(Self.frame)
        let expected = outbox.messages
        var seen: [ServerMessage] = []
        var lines: [[UInt8]] = []
        var asked = 0
        outbox.lendEach { wire, seqIndex, messageClass, message in
            lines.append(Array(wire))
            let index = lines.count - 1
            #expect(seqIndex == expected[index].seqIndex)
            #expect(messageClass == expected[index].messageClass)
            if index != 1 {  // the pong is not asked for: a receiver that need not keep it
                asked += 1
                seen.append(message())
            }
        }
        #expect(lines == expected.map(\.wire))
        #expect(asked == 2)
        #expect(seen == [expected[0], expected[2]])
        // Returned after the last: it takes messages again.
        outbox.removeAll()
        outbox.append(Self.pong)
        #expect(outbox.messages == [Self.pong])
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

    @Test("a turn that grew it past the room it keeps gives the rest back when emptied, and it fills again from its first room")
    func givesBackRoom() {
        let outbox = Outbox()
        for _ in 0..<1_000 { outbox.append(Self.frame) }  // past the kept 16 KiB of bytes and 256 entries
        #expect(outbox.byteCapacity > Outbox.keptByteCapacity)
        #expect(outbox.entryCapacity > Outbox.keptEntryCapacity)
        outbox.removeAll()
        #expect(outbox.byteCapacity == Outbox.initialByteCapacity)
        #expect(outbox.entryCapacity == Outbox.initialEntryCapacity)
        outbox.append(Self.tempo)
        outbox.append(Self.pong)
        #expect(outbox.messages == [ServerMessage(.control(Self.tempo), at: Self.tempo.timeNanoseconds), Self.pong])
    }

    @Test("a turn that grew it within the room it keeps keeps that room")
    func keepsRoom() {
        let outbox = Outbox()
        for _ in 0..<100 { outbox.append(Self.frame) }  // past its first room, within what it keeps
        let bytes = outbox.byteCapacity, entries = outbox.entryCapacity
        #expect(bytes > Outbox.initialByteCapacity && bytes <= Outbox.keptByteCapacity)
        #expect(entries > Outbox.initialEntryCapacity && entries <= Outbox.keptEntryCapacity)
        outbox.removeAll()
        #expect(outbox.byteCapacity == bytes)
        #expect(outbox.entryCapacity == entries)
    }

    #if compiler(>=6.2)
    // Exit tests (a child process of the test runner) came with Swift Testing 6.2: the distro
    // and arm64 lanes' Swift 6.0.3 builds the suite without these three.
    static let lentTrap = "an outbox was changed while its bytes were lent out to be sent"

    /// Whether the child said `text` as it died: a debug build's precondition names its failure;
    /// a release build's only traps (the exit condition is all it shows).
    static func said(_ result: ExitTest.Result?, _ text: String) -> Bool {
        guard let result else { return false }
        #if DEBUG
        return String(decoding: result.standardErrorContent, as: UTF8.self).contains(text)
        #else
        return true
        #endif
    }

    @Test("an event appended while its bytes are lent out traps, in every build (the child process dies saying why)")
    func appendWhileLentTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outbox = Outbox()
            outbox.append(OutboxTests.tempo)
            outbox.beginLending()
            outbox.append(OutboxTests.frame)
        }
        #expect(Self.said(result, Self.lentTrap))
    }

    @Test("emptied, or given a whole message, while its bytes are lent out, it traps")
    func changeWhileLentTraps() async {
        let emptied = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outbox = Outbox()
            outbox.append(OutboxTests.tempo)
            outbox.beginLending()
            outbox.beginLending()
            outbox.endLending()  // still lent once
            outbox.removeAll()
        }
        #expect(Self.said(emptied, Self.lentTrap))
        let appended = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outbox = Outbox()
            outbox.beginLending()
            outbox.append(OutboxTests.pong)
        }
        #expect(Self.said(appended, Self.lentTrap))
    }

    @Test("changed from inside its own lending (as a send reaching back would), it traps")
    func changeInsideLendEachTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outbox = Outbox()
            outbox.append(OutboxTests.tempo)
            outbox.lendEach { _, _, _, _ in outbox.append(OutboxTests.pong) }
        }
        #expect(Self.said(result, Self.lentTrap))
    }

    @Test("lending ended more often than it began traps")
    func unbalancedLendingTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outbox = Outbox()
            outbox.beginLending()
            outbox.endLending()
            outbox.endLending()
        }
        #expect(Self.said(result, "lending ended more often than it began"))
    }
    #endif
}
