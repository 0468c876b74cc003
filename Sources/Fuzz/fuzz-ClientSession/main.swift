// libFuzzer target: whole client sessions against the socket server flywheeld runs — the real
// SocketServer on a real Unix socket, its commands answered by a Pipeline's DaemonCore as the daemon
// wires them — with a quiet neighbour beside the fuzzed client. Checked for every input:
// - the fuzzed client gets exactly one answer for every line that is not blank (counted, not
//   matched line by line), even after it half-closes its socket; a line over 64 KiB gets
//   `line-too-long` and the end instead;
// - every line the server sends is a server message (`{"class":"NAME"`, one line each);
// - the neighbour (who reads nothing until the end of a session) is never disconnected, its `ping`
//   gets exactly one answer, a `pong`, and the last `tempo` it receives is the tempo the daemon
//   ends with (latest wins, nothing lost);
// - the controls stay within their ranges, and every client's slot is free once it closes.
// No session stalls: one that makes no progress for 5 s fails (wall time, not a count of loop
// turns, which a loaded machine used up before a paced server had read its client's bytes).
//
// The server paces each client as the daemon does, in windows 200 times shorter and half as full
// (8 KiB per 50 µs rather than 16 KiB per 10 ms): a 64 KiB line is read over at least 8 windows, a
// burst of commands is paused after 8, and pacing adds microseconds to a session, not tens of
// milliseconds.
// The neighbour stays connected from one session to the next (the daemon's clients outlive any
// one client's session) unless the input tells it to leave.
//
// Input: a header byte, then the bytes the client sends. Header bits 0–3: how many times the bytes
// are sent (once for 0–11, then 2, 4, 8, 16 times); 11 adds a line one byte over 64 KiB after them
// (so inputs of 1 KiB reach every limit a 64 KiB session does);
// bits 4–6: the size of each write; bit 7: the neighbour leaves after the session (its slot must
// be freed; a new one comes next time).
import FlywheelCore
import FlywheelIO
import Glibc

/// The longest line a client may send (the protocol's bound), without its line ending.
let maximumLine = 64 * 1024
let writeSizes = [1, 7, 64, 500, 4096, 16384, 65536, 1 << 20]
/// How many times the input's bytes are sent, by header bits 0–3: mostly once (a session costs
/// what its lines cost), or 2, 4, 8 or 16 times (bursts of hundreds of commands, a long line).
let repetitions = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 8, 16]
/// Header bits 0–3 equal to this: the bytes once, then a line one byte over the 64 KiB limit
/// (`line-too-long` after the input's answers, whatever the input's length).
let overLongLine = 11
let filler = [UInt8](repeating: UInt8(ascii: "x"), count: maximumLine + 1) + [0x0A]

/// The server and the controls behind it, made once per process, and the neighbour.
@MainActor
final class Harness {
    let loop: EventLoop
    let server: SocketServer
    let path: String
    var pipeline = Pipeline(core: DaemonCore())
    /// The quiet neighbour, connected across sessions (nil after it left).
    var quiet: Peer?

    init() {
        path = "/tmp/flywheel-fuzz-\(getpid()).sock"
        do {
            loop = try EventLoop()
            server = try SocketServer(loop: loop, listener: UnixListener.bind(path: path, mode: 0o600))
        } catch {
            fatalError("the fuzz server could not start: \(error)")
        }
        server.readWindowNanoseconds = pacingWindowNanoseconds
        server.bytesPerWindow = pacingBytesPerWindow
        // As Daemon.wire does.
        server.hello = { [unowned self] time in self.pipeline.core.hello(version: FlywheelVersion.string, devices: [], at: time) }
        server.onCommand = { [unowned self] command, time in self.pipeline.core.handle(command, at: time) }
        server.onSubscriptionsChanged = { [unowned self] in self.pipeline.wantsFrames = self.server.anyoneWantsFrames }
    }

    /// One loop turn, then the controls' due deadlines, as Daemon.wake does. The loop waits for
    /// its descriptors (a client's bytes, the pacing timer) up to a millisecond: it never spins.
    func turn() {
        do { try loop.runOnce(timeoutMilliseconds: 1) } catch { fatalError("the loop failed: \(error)") }
        pipeline.advance(to: max(MonotonicClock.now(), pipeline.time))
        server.broadcast(pipeline.outbox)
        pipeline.outbox.removeAll()
    }

    /// Turns the loop until `done`; fails if that takes `stallNanoseconds`.
    func turn(until done: () -> Bool, _ what: @autoclosure () -> String) {
        let start = MonotonicClock.now()
        while !done() {
            turn()
            check(MonotonicClock.now() - start < stallNanoseconds, what())
        }
    }
}

/// The fuzzed server's pacing (see the header).
let pacingWindowNanoseconds: Nanoseconds = 50_000
let pacingBytesPerWindow = 8 * 1024
/// How long a session may make no progress before it counts as stalled.
let stallNanoseconds: Nanoseconds = 5_000_000_000

/// The receive buffer of every peer (one thread).
nonisolated(unsafe) var chunk = [UInt8](repeating: 0, count: 65536)

/// What a peer has received, counted line by line as it arrives (no line is kept).
struct Tally {
    /// Replies (one owed per line that is not blank), not counting errors that close.
    var answers = 0
    var closedWithError = false
    var pongs = 0
    /// The `bpm` of the last `tempo` message.
    var lastTempo: BPM?
    /// The last error that closed the connection, for messages.
    var lastError = ""

    mutating func take(_ line: UnsafeRawBufferPointer) {
        checkServerMessage(line)
        if hasPrefix(line, #"{"class":"tempo""#) {
            lastTempo = bpm(line)
        } else if hasPrefix(line, #"{"class":"pong""#) {
            pongs += 1
            answers += 1
        } else if hasPrefix(line, errorHead) {
            // `{"class":"error","seq":N,"code":"…"`: the code is the first field.
            var index = errorHead.utf8CodeUnitCount
            while index < line.count, line[index] >= 0x30, line[index] <= 0x39 { index += 1 }
            let rest = UnsafeRawBufferPointer(rebasing: line[index...])
            check(hasPrefix(rest, codeLabel), "an error without a code: \(String(decoding: line, as: UTF8.self))")
            let code = UnsafeRawBufferPointer(rebasing: rest[codeLabel.utf8CodeUnitCount...])
            if hasPrefix(code, #"line-too-long""#) || hasPrefix(code, #"queue-overflow""#) {
                closedWithError = true
                lastError = String(decoding: line, as: UTF8.self)
            } else {
                answers += 1
            }
        } else if hasPrefix(line, #"{"class":"state""#) || hasPrefix(line, #"{"class":"watch""#) || hasPrefix(line, #"{"class":"tap""#) {
            answers += 1
        }
    }
}

/// Whether `line` starts with `text` (`memcmp`: the harness's own work stays out of the fuzzer's
/// comparison tracing).
func hasPrefix(_ line: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard line.count >= count, let base = line.baseAddress else { return false }
    return memcmp(base, text.utf8Start, count) == 0
}

let errorHead: StaticString = #"{"class":"error","seq":"#
let codeLabel: StaticString = #","code":""#

/// A test client: a non-blocking socket, the start of a line still arriving, and what it received.
struct Peer {
    let fd: Int32
    var partial: [UInt8] = []
    var tally = Tally()
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

    /// Writes what the socket takes of `bytes`; how many it took (-1: the server closed it).
    func write(_ bytes: ArraySlice<UInt8>) -> Int {
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0 {
            check(errno == EAGAIN || errno == EPIPE || errno == ECONNRESET, "send: \(errno)")
            return errno == EAGAIN ? 0 : -1
        }
        return written
    }

    /// Reads whatever has arrived and counts its lines; whether anything did.
    mutating func read() -> Bool {
        var any = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) {
                ended = true
                return true
            }
            if count < 0 {
                check(errno == EAGAIN, "recv: \(errno)")
                return any
            }
            any = true
            chunk.withUnsafeBytes { raw in
                let base = raw.baseAddress!
                var start = 0
                while start < count, let newline = memchr(base + start, 0x0A, count - start) {
                    let end = base.distance(to: UnsafeRawPointer(newline))
                    let piece = UnsafeRawBufferPointer(rebasing: raw[start..<end])
                    if partial.isEmpty {
                        tally.take(piece)
                    } else {
                        partial += piece
                        partial.withUnsafeBytes { tally.take($0) }
                        partial.removeAll(keepingCapacity: true)
                    }
                    start = end + 1
                }
                partial += raw[start..<count]
            }
        }
    }

    func close() { Glibc.close(fd) }
}

/// Fails unless `line` is a server message: `{"class":"NAME"` with a name of at most 16 bytes.
func checkServerMessage(_ line: UnsafeRawBufferPointer) {
    let prefix: StaticString = #"{"class":""#
    let start = prefix.utf8CodeUnitCount
    let quote = line.count > start ? memchr(line.baseAddress! + start, 0x22, min(line.count - start, 17)) : nil
    check(hasPrefix(line, prefix) && quote != nil, "not a server message: \(String(decoding: line, as: UTF8.self))")
}

/// Where `text` starts in `line`, if it is there.
func find(_ text: StaticString, in line: UnsafeRawBufferPointer) -> Int? {
    let count = text.utf8CodeUnitCount
    guard let base = line.baseAddress, line.count >= count else { return nil }
    var start = 0
    while start + count <= line.count, let first = memchr(base + start, Int32(text.utf8Start.pointee), line.count - count + 1 - start) {
        let index = base.distance(to: UnsafeRawPointer(first))
        if memcmp(base + index, text.utf8Start, count) == 0 { return index }
        start = index + 1
    }
    return nil
}

/// The `bpm` of a `tempo` message (to a tenth: `92.5` or `120`).
func bpm(_ line: UnsafeRawBufferPointer) -> BPM? {
    let key: StaticString = #""bpm":"#
    guard let found = find(key, in: line) else { return nil }
    let number = line[(found + key.utf8CodeUnitCount)...].prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
    return Double(String(decoding: UnsafeRawBufferPointer(rebasing: number), as: UTF8.self)).map(BPM.init)
}

/// The answers the server owes for `stream`: one per line that is not blank, up to the first
/// line over the limit (then true: `line-too-long` and the end).
func expectedAnswers(_ stream: [UInt8]) -> (answers: Int, tooLong: Bool) {
    stream.withUnsafeBytes { raw in
        var answers = 0
        var start = 0
        let base = raw.baseAddress!
        while start < raw.count, let newline = memchr(base + start, 0x0A, raw.count - start) {
            let index = base.distance(to: UnsafeRawPointer(newline))
            var end = index
            if end > start, raw[end - 1] == 0x0D { end -= 1 }
            if end - start > maximumLine { return (answers, true) }
            if !raw[start..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { answers += 1 }
            start = index + 1
        }
        let pending = raw.last == 0x0D ? raw.count - 1 - start : raw.count - start
        return (answers, pending > maximumLine)
    }
}

@MainActor let harness = Harness()
let ping = Array("{\"cmd\":\"ping\"}\n".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    MainActor.assumeIsolated { session(input) }
    return 0
}

@MainActor
func session(_ input: [UInt8]) {
    guard let header = input.first else { return }
    let body = input.dropFirst()
    harness.pipeline = Pipeline(core: DaemonCore())
    harness.pipeline.wantsFrames = harness.server.anyoneWantsFrames
    var stream: [UInt8] = []
    stream.reserveCapacity(body.count * 16)
    for _ in 0..<repetitions[Int(header & 0x0F)] { stream += body }
    if Int(header & 0x0F) == overLongLine { stream += filler }
    // Tiny writes only for short streams (a turn of the loop each).
    let writeSize = max(writeSizes[Int(header >> 4) & 0x07], stream.count / 64)
    let (owed, tooLong) = expectedAnswers(stream)

    var quiet = harness.quiet ?? Peer(path: harness.path)
    // What it received after the last session's pong belongs to that session's controls.
    _ = quiet.read()
    check(!quiet.ended, "the quiet client was disconnected between sessions: \(quiet.tally.lastError)")
    quiet.tally = Tally()
    var client = Peer(path: harness.path)
    harness.turn(until: { harness.server.clientCount == 2 }, "the server did not accept both clients")
    var sent = 0
    var halfClosed = false
    var lastProgress = MonotonicClock.now()
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
        if client.read() { progress = true }
        let answers = client.tally.answers
        check(answers <= owed || client.tally.closedWithError, "\(answers) answers for \(owed) lines")
        if client.ended || (halfClosed && answers >= owed && !tooLong) { break }
        let now = MonotonicClock.now()
        if progress { lastProgress = now }
        check(now - lastProgress < stallNanoseconds, "stalled: \(answers) of \(owed) answers after \(sent) of \(stream.count) bytes")
    }
    let answers = client.tally.answers
    let closedWithError = client.tally.closedWithError
    // Backpressure: a client pipelining more commands than its queue holds (1024) is held back
    // until it reads, never disconnected while it reads (within the 5 s hold-back limit).
    check(!closedWithError || tooLong, "disconnected though it read every answer: \(client.tally.lastError)")
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
    check(quiet.write(ping[...]) == ping.count)
    harness.turn(until: {
        _ = quiet.read()
        check(!quiet.ended, "the quiet client was disconnected: \(quiet.tally.lastError)")
        return quiet.tally.pongs > 0
    }, "the quiet client's ping was not answered")
    check(quiet.tally.pongs == 1 && quiet.tally.answers == 1, "the quiet client got \(quiet.tally.answers) answers to one ping")
    let state = harness.pipeline.core.currentState
    let lastTempo = quiet.tally.lastTempo
    check(lastTempo == nil || lastTempo == state.tempoBPM, "the neighbour's last tempo \(lastTempo!) is not \(state.tempoBPM)")
    check((state.tempoDial.range.lowerBound * 10...state.tempoDial.range.upperBound * 10).contains(state.tempoBPM.tenths), "bpm \(state.tempoBPM) outside \(state.tempoDial.range)")
    check(state.scrubPositionSeconds >= 0 && state.scrubPositionSeconds <= state.scrubDurationSeconds)
    check(state.volume >= 0 && state.volume <= state.volumeCap)
    if header & 0x80 != 0 {
        quiet.close()
        harness.quiet = nil
    } else {
        harness.quiet = quiet
    }
    let staying = harness.quiet == nil ? 0 : 1
    harness.turn(until: { harness.server.clientCount == staying }, "a closed client keeps its slot")
}

/// A failed invariant: said on standard error (a release build's precondition says nothing), then a trap.
func check(_ condition: Bool, _ message: @autoclosure () -> String = "") {
    guard !condition else { return }
    let line = Array("fuzz-ClientSession: \(message())\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
