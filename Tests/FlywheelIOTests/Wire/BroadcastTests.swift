import FlywheelCore
import Glibc
import Testing
@testable import FlywheelIO

/// A turn's outbox broadcast to every client, whose clients are lent to the sends unretained
/// (`Array.forEachUnretained`): a client dropped in the middle of the loop must stay valid until
/// the loop is past it, and the others must get every line.
@Suite("Broadcast of an outbox", .serialized)
struct BroadcastTests {
    static func event(_ bpm: Int) -> ControlEvent {
        .tempo(bpm: BPM(tenths: bpm * 10), value: bpm, phase: .moved, timeNanoseconds: Nanoseconds(bpm) * 1_000_000)
    }

    @Test("clients gone before a broadcast are dropped during it, at their first line; the rest get every line in order, seqs counting on")
    func clientsDroppedDuringTheLoop() throws {
        try ClientBackpressureTests.withCore(clients: 4) { loop, server, fds in
            #expect(server.clientCount == 4)
            // The first and third hang up: their first line fails (EPIPE) and they are dropped
            // while the loop still goes over the array that held them. (Shut down, not closed:
            // the harness closes their descriptors, and a number closed twice may by then be
            // another test's.)
            shutdown(fds[0], Int32(SHUT_RDWR))
            shutdown(fds[2], Int32(SHUT_RDWR))
            let outbox = Outbox()
            for bpm in 100..<120 { outbox.append(Self.event(bpm)) }
            outbox.append(ServerMessage(.pong, at: 7))
            server.broadcast(outbox)
            #expect(server.clientCount == 2)
            outbox.removeAll()  // no longer lent: it takes the next turn
            outbox.append(Self.event(120))
            server.broadcast(outbox)
            for fd in [fds[1], fds[3]] {
                let lines = SocketServerFairnessTests.received(fd).compactMap { try? JSONParser.parse(Array($0.utf8)) }
                #expect(lines.compactMap { if case .int(let bpm)? = $0["bpm"] { bpm } else { nil } } == Array(100...120))
                #expect(lines.filter { $0["class"] == .string("pong") }.count == 1)
                let seqs = lines.compactMap { if case .int(let seq)? = $0["seq"] { seq } else { nil } }
                #expect(seqs == Array(seqs.first!..<(seqs.first! + 22)))
            }
        }
    }
}
