// libFuzzer target: whole client sessions against the socket server flywheeld runs — the real
// SocketServer on a real Unix socket, its commands answered by a Pipeline's DaemonCore as the daemon
// wires them — with a quiet neighbour beside the fuzzed client. Checked for every input:
// - the fuzzed client gets exactly one answer for every line that is not blank, in order, even
//   after it half-closes its socket; a line over 64 KiB gets `line-too-long` and the end instead;
// - the neighbour (who reads nothing until the end) is never disconnected, its `ping` is answered,
//   and the last `tempo` it receives is the tempo the daemon ends with (latest wins, nothing lost);
// - the controls stay within their ranges, and every client's slot is free once it closes.
//
// Input: a header byte, then the bytes the client sends. Header bits 0–3: how many times the bytes
// are sent (1–16, so a short input can make a line over 64 KiB); bits 4–6: the size of each write.
import FlywheelCore
import FlywheelIO
import Glibc

/// The longest line a client may send (the protocol's bound), without its line ending.
let maximumLine = 64 * 1024
let writeSizes = [1, 7, 64, 500, 4096, 16384, 65536, 1 << 20]
/// The server's default queue of discrete messages a client.
let queueLimit = 1024
let replyClasses: Set<String> = ["pong", "state", "watch", "error", "tap"]

/// The server and the controls behind it, made once per process.
@MainActor
final class Harness {
    let loop: EventLoop
    let server: SocketServer
    let path: String
    var pipeline = Pipeline(core: DaemonCore())

    init() {
        path = "/tmp/flywheel-fuzz-\(getpid()).sock"
        do {
            loop = try EventLoop()
            server = try SocketServer(loop: loop, listener: UnixListener.bind(path: path, mode: 0o600))
        } catch {
            fatalError("the fuzz server could not start: \(error)")
        }
        // As Daemon.wire does.
        server.hello = { [unowned self] time in self.pipeline.core.hello(version: FlywheelVersion.string, devices: [], at: time) }
        server.onCommand = { [unowned self] command, time in self.pipeline.core.handle(command, at: time) }
        server.onSubscriptionsChanged = { [unowned self] in self.pipeline.wantsFrames = self.server.anyoneWantsFrames }
    }

    /// One loop turn that waits for nothing, then the controls' due deadlines, as Daemon.wake does.
    func turn() {
        do { try loop.runOnce(timeoutMilliseconds: 0) } catch { fatalError("the loop failed: \(error)") }
        server.broadcast(pipeline.advance(to: max(MonotonicClock.now(), pipeline.time)))
    }
}

/// The receive buffer of every peer (one thread).
nonisolated(unsafe) var chunk = [UInt8](repeating: 0, count: 65536)

/// A test client: a non-blocking socket and the lines received on it.
struct Peer {
    let fd: Int32
    var buffer: [UInt8] = []
    var lines: [String] = []
    var ended = false

    init(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        check(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        check(result == 0, "connect: \(errno)")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Writes what the socket takes of `bytes`; how many it took.
    func write(_ bytes: ArraySlice<UInt8>) -> Int {
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0 {
            check(errno == EAGAIN || errno == EPIPE || errno == ECONNRESET, "send: \(errno)")
            return errno == EAGAIN ? 0 : -1
        }
        return written
    }

    /// Reads whatever has arrived; whether anything did.
    mutating func read() -> Bool {
        var any = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) {
                ended = true
                return true
            }
            if count < 0 { return any }
            any = true
            buffer += chunk[0..<count]
            var start = 0
            for index in buffer.indices where buffer[index] == 0x0A {
                lines.append(String(decoding: buffer[start..<index], as: UTF8.self))
                start = index + 1
            }
            buffer.removeFirst(start)
        }
    }

    func close() { Glibc.close(fd) }
}

/// The class of a server line (every one starts `{"class":"NAME"`).
func messageClass(_ line: String) -> String {
    check(line.hasPrefix("{\"class\":\""), "not a server message: \(line)")
    return String(line.dropFirst(10).prefix { $0 != "\"" })
}

/// The answers the server owes for `stream`: one per line that is not blank, up to the first
/// line over the limit (then true: `line-too-long` and the end).
func expectedAnswers(_ stream: [UInt8]) -> (answers: Int, tooLong: Bool) {
    var answers = 0
    var start = 0
    for index in stream.indices where stream[index] == 0x0A {
        var end = index
        if end > start, stream[end - 1] == 0x0D { end -= 1 }
        if end - start > maximumLine { return (answers, true) }
        if !stream[start..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { answers += 1 }
        start = index + 1
    }
    let pending = stream.last == 0x0D ? stream.count - 1 - start : stream.count - start
    return (answers, pending > maximumLine)
}

/// Whether an error closes the connection (`line-too-long`, `queue-overflow`).
func closes(_ line: String) -> Bool {
    line.hasPrefix("{\"class\":\"error\",") && (line.contains(",\"code\":\"line-too-long\",") || line.contains(",\"code\":\"queue-overflow\","))
}

/// The `bpm` of a `tempo` message.
func bpm(_ line: String) -> Int? {
    guard let range = line.firstRange(of: "\"bpm\":") else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
}

@MainActor let harness = Harness()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    MainActor.assumeIsolated { session(input) }
    return 0
}

@MainActor
func session(_ input: [UInt8]) {
    guard let header = input.first else { return }
    harness.pipeline = Pipeline(core: DaemonCore())
    let body = input.dropFirst()
    var stream: [UInt8] = []
    for _ in 0...Int(header & 0x0F) { stream += body }
    // Tiny writes only for short streams (a turn of the loop each).
    let writeSize = max(writeSizes[Int(header >> 4) & 0x07], stream.count / 64)
    let (owed, tooLong) = expectedAnswers(stream)

    var quiet = Peer(path: harness.path)
    var client = Peer(path: harness.path)
    while harness.server.clientCount < 2 { harness.turn() }
    var sent = 0
    var idleTurns = 0
    var halfClosed = false
    var answers = 0
    var closedWithError = false
    // Write, let the server turn, read; until every answer is in (or the connection ended).
    while true {
        var progress = false
        if sent < stream.count {
            let written = client.write(stream[sent..<min(stream.count, sent + writeSize)])
            if written < 0 { sent = stream.count } else { sent += written }
            progress = written != 0
        } else if !halfClosed {
            shutdown(client.fd, Int32(SHUT_WR))  // as socat does when its input ends
            halfClosed = true
        }
        harness.turn()
        let before = client.lines.count
        if client.read() { progress = true }
        for line in client.lines[before...] where replyClasses.contains(messageClass(line)) {
            if closes(line) { closedWithError = true }
            else { answers += 1 }
        }
        if client.ended || (halfClosed && answers >= owed && !tooLong) { break }
        idleTurns = progress ? 0 : idleTurns + 1
        check(idleTurns < 10_000, "stalled: \(answers) of \(owed) answers after \(sent) of \(stream.count) bytes")
    }
    // Backpressure: a client pipelining more commands than its queue holds (1024) is held back
    // until it reads, never disconnected while it reads (within the 5 s hold-back limit).
    check(!closedWithError || tooLong, "disconnected though it read every answer: \(client.lines.last ?? "")")
    if closedWithError && !tooLong {
        check(answers <= owed, "\(answers) answers for \(owed) lines")
    } else if tooLong {
        check(closedWithError && client.ended, "a line over 64 KiB did not end the connection")
        check(answers <= owed, "\(answers) answers for \(owed) lines")
    } else {
        check(answers == owed, "\(answers) answers for \(owed) lines")
    }
    client.close()

    // The neighbour: still served, never disconnected, and its last tempo is the daemon's.
    check(quiet.write(Array("{\"cmd\":\"ping\"}\n".utf8)[...]) > 0)
    while !quiet.lines.contains(where: { messageClass($0) == "pong" }) {
        harness.turn()
        _ = quiet.read()
        check(!quiet.ended, "the quiet client was disconnected: \(quiet.lines.last ?? "")")
    }
    let state = harness.pipeline.core.currentState
    let lastTempo = quiet.lines.last { messageClass($0) == "tempo" }.flatMap(bpm)
    check(lastTempo == nil || lastTempo == state.tempoBPM, "the neighbour's last tempo \(lastTempo!) is not \(state.tempoBPM)")
    check(state.tempoDial.range.contains(state.tempoBPM), "bpm \(state.tempoBPM) outside \(state.tempoDial.range)")
    check(state.scrubPositionSeconds >= 0 && state.scrubPositionSeconds <= state.scrubDurationSeconds)
    check(state.volume >= 0 && state.volume <= state.volumeCap)
    quiet.close()
    var turns = 0
    while harness.server.clientCount > 0 {
        harness.turn()
        turns += 1
        check(turns < 10_000, "a closed client keeps its slot")
    }
}

/// A failed invariant: said on standard error (a release build's precondition says nothing), then a trap.
func check(_ condition: Bool, _ message: @autoclosure () -> String = "") {
    guard !condition else { return }
    let line = Array("fuzz-ClientSession: \(message())\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
