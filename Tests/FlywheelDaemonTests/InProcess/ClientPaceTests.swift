import FlywheelCore
@testable import FlywheelDaemon
@testable import FlywheelIO
import Glibc
import Testing

/// Clients at the wrong pace against flywheeld, in this process: one that reads nothing, one that
/// writes a file of commands and reads slowly, one that floods sets past a neighbour's queue, one
/// half-closed, one too many. The server's pacing (16 KiB per 10 ms) and hold-back limit (5 s)
/// run on the virtual clock too, so a test takes as long as its turns, whatever time passes in it.
/// (The binary's own pacing under a flood on another thread stays in HostilePeerLoadTests.)
@Suite("flywheeld and clients at the wrong pace, in process", .serialized)
@MainActor
struct ClientPaceTests {
    /// `count` tempo sets, one a line, 40 to 239 BPM round and round.
    static func sets(_ count: Int) -> [UInt8] {
        var text = ""
        for index in 0..<count { text += "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(40 + index % 200)}\n" }
        return Array(text.utf8)
    }

    @Test("a client that stops reading is cut off with queue-overflow and never delays another")
    func slowClient() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        defer { daemon.stop() }
        let slow = try daemon.connect()
        let brisk = try daemon.connect()
        _ = try brisk.next()
        // 100,000 pings from a client that reads nothing: its replies pile up past the queue limit,
        // and the daemon stops taking its bytes (the send fails) long before the last.
        let burst = Array(String(repeating: "{\"cmd\":\"ping\"}\n", count: 1000).utf8)
        var sent = 0
        for _ in 0..<100 where try slow.send(burst) { sent += 1 }
        #expect(sent < 100, "every burst was taken")
        // The other client is answered at once meanwhile.
        #expect(try brisk.pong())
        // Reading the slow client now: hello, pongs, then the error, then the end.
        var last: JSONValue?
        var count = 0
        while let message = try slow.next() {
            last = message
            count += 1
        }
        #expect(last?["code"] == .string("queue-overflow"), "last of \(count): \(last?.encoded() ?? "nothing")")
        #expect(last?["message"]?.stringValue?.contains("not read its answers for 5000 ms") == true, "held back, then cut off")
        #expect(count > 1 && count < 100_000)
    }

    @Test("an overflowed client frees its slot at once: a new client is served, not refused")
    func overflowFreesSlot() throws {
        let daemon = try InProcessDaemon(["--frames", "0", "--max-clients", "2"])
        defer { daemon.stop() }
        let witness = try daemon.connect()
        _ = try witness.next()
        let slow = try daemon.connect()
        // Pings from a client that reads nothing, until the daemon stops reading it (its writes
        // then fail: the daemon shut its receiving side when it overflowed).
        let burst = Array(String(repeating: "{\"cmd\":\"ping\"}\n", count: 1000).utf8)
        var bursts = 0
        while bursts < 1000, try slow.send(burst) { bursts += 1 }
        #expect(bursts < 1000)
        try withExtendedLifetime(slow) {  // still connected: the slot is freed by the overflow, not a hang-up
            let newcomer = try daemon.connect()
            #expect(try newcomer.next()?["class"] == .string("hello"))
            #expect(try witness.pong())
        }
    }

    @Test("3,000 set tempo lines in one write do not overflow a watching neighbour's queue of 16")
    func setBurst() throws {
        let config = try DaemonServingTests.write("{ clients: { queue_messages: 16 } }")
        let daemon = try InProcessDaemon(["--config", config, "--frames", "0"])
        defer { daemon.stop() }
        let neighbour = try daemon.connect()
        _ = try neighbour.next()
        try neighbour.send("{\"cmd\":\"watch\",\"classes\":[\"tempo\"]}")
        #expect(try neighbour.next()?["class"] == .string("watch"))
        let flooder = try daemon.connect()
        _ = try flooder.next()
        try flooder.send("{\"cmd\":\"watch\",\"classes\":[\"gap\"]}")  // its replies only
        #expect(try flooder.next()?["class"] == .string("watch"))
        let count = 3000
        try flooder.send(Self.sets(count), readingMeanwhile: true)
        // Every set answered before the neighbour reads a byte.
        var answers = 0
        while answers < count, let message = try flooder.next() {
            #expect(message["class"] == .string("state"), "\(message.encoded())")
            answers += 1
        }
        #expect(answers == count)
        // The neighbour, which read nothing meanwhile, is still connected and sees the last tempo.
        let lastBPM = 40 + (count - 1) % 200
        var last: JSONValue?
        while let message = try neighbour.next(), message["class"] != .string("pong") {
            #expect(message["class"] != .string("error"), "\(message.encoded())")
            last = message
            if last?["bpm"] == .int(lastBPM) { break }
        }
        #expect(last?["bpm"] == .int(lastBPM))
        #expect(try neighbour.pong(passing: ["tempo"]))
    }

    @Test("a 3,000-line file of sets written and shut (SHUT_WR), its answers left unread until the daemon holds it back, then read at a script's pace: 3,000 answers in order, no queue-overflow")
    func socatFile() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        defer { daemon.stop() }
        let count = 3000
        let client = try daemon.connect()
        _ = try client.next()
        #expect(try client.send(Self.sets(count)))
        client.shutdownWriting()
        // Nothing read while the daemon answers: the kernel's buffer fills, then its queue, until
        // it stops reading this client (held back) rather than overflow it.
        // (Checked after each deadline: the next is the hold-back's limit, 5 s on.)
        var turns = 0
        while daemon.daemon.server.heldBackClients.isEmpty, turns < 10_000 {
            turns += 1
            if try !daemon.advanceToDeadline() { try daemon.turn() }
        }
        #expect(!daemon.daemon.server.heldBackClients.isEmpty, "the daemon kept reading a client that reads nothing")
        // A script's pace now (a `while read line` loop): the daemon turns three times for each
        // answer read.
        var answers: [Int] = []
        var errors: [String] = []
        while answers.count < count, let message = try client.next() {
            for _ in 0..<3 { try daemon.turn() }
            if message["class"] == .string("state"), case .int(let bpm)? = message["tempo"]?["bpm"] { answers.append(bpm) }
            if message["class"] == .string("error") { errors.append(message.encoded()) }
        }
        #expect(errors.isEmpty, "\(errors.first ?? "")")
        #expect(answers.count == count)
        #expect(answers.elementsEqual((0..<count).map { 40 + $0 % 200 }))
        #expect(daemon.daemon.server.heldBackClients.isEmpty)
    }

    @Test("a client that half-closes after watch (as socat does) keeps receiving events")
    func halfClosed() throws {
        let daemon = try InProcessDaemon(["--frames", "0"])
        defer { daemon.stop() }
        let listener = try daemon.connect()
        _ = try listener.next()
        try listener.send("{\"cmd\":\"watch\",\"classes\":[\"tempo\"]}")
        #expect(try listener.next()?["class"] == .string("watch"))
        listener.shutdownWriting()
        let setter = try daemon.connect()
        _ = try setter.next()
        try setter.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":97}")
        #expect(try listener.next()?["bpm"] == .int(97))
    }

    @Test("past --max-clients a new client is refused with an error; the others are unaffected")
    func clientLimit() throws {
        let daemon = try InProcessDaemon(["--frames", "0", "--max-clients", "3"])
        defer { daemon.stop() }
        let served = try (0..<3).map { _ in try daemon.connect() }
        for client in served { #expect(try client.next()?["class"] == .string("hello")) }
        let refused = try daemon.connect()
        #expect(try refused.next()?["code"] == .string("too-many-clients"))
        #expect(try refused.next() == nil)
        #expect(try served[0].pong())
    }
}
