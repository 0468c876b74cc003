// libFuzzer target: the bridges' reading side against peer bytes nobody planned.
//
// Input: a header byte, then the peer's bytes. Header bit 0: which side —
// - 0: **MPD's side.** The bytes are what an MPD server sends, on a real socket pair, to the bridges'
//   `MPDClient`, which keeps one command outstanding as the MPD bridge does (`status` after the
//   greeting, the next after each answer). Checked against an oracle that splits the same bytes into
//   lines by itself: the client greets iff the first line starts `OK MPD `; it delivers exactly one
//   answer per `OK`/`ACK` line after the greeting, in order, each with the key/value lines before it;
//   it fails (once) on the first line over 64 KiB, an answer of over 4,096 lines, or a bad greeting,
//   and delivers nothing after; at the end of the bytes it has failed (the peer closed). Its buffer
//   never holds more than the line limit and one read.
// - 1: **`flywheel connect`'s input.** The bytes go through a `LineReader` in pieces of a size from
//   the header, and must come out as the oracle's lines: each line whole (bytes unchanged, invalid
//   UTF-8 included), a line over 64 KiB as one `tooLong` and nothing of its tail, the bytes after the
//   last newline as a last line at the end.
// Header bits 1–3: the size of each write or piece (1 byte to 64 KiB, at least a 64th of the bytes); bit 4: a line of 65,537 bytes
// is put in the middle of the bytes (so inputs of 4 KiB reach the line limit).
import FlywheelCore
import FlywheelIO
import Glibc

let maximumLine = 65_536
let pieceSizes = [1, 3, 17, 100, 1000, 4096, 16_384, 65_536]
let longLine = [UInt8](repeating: UInt8(ascii: "k"), count: maximumLine + 1) + [0x0A]

/// A line as the oracle sees it: complete lines, then what is left at the end.
func oracleLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
}

/// What `LineReader` must make of `bytes`.
func expectedReaderOutput(_ bytes: [UInt8]) -> [LineReader.Line] {
    oracleLines(bytes).map { $0.count > maximumLine ? .tooLong(prefix: Array($0.prefix(64))) : .line($0) }
}

func connectInput(_ bytes: [UInt8], piece: Int) {
    var reader = LineReader(maximumLineBytes: maximumLine)
    var out: [LineReader.Line] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        reader.append(bytes[offset..<end])
        offset = end
        while let line = reader.next() { out.append(line) }
        precondition(reader.bufferedByteCount <= maximumLine + piece + 1, "the reader holds \(reader.bufferedByteCount) bytes")
    }
    reader.finish()
    while let line = reader.next() { out.append(line) }
    let expected = expectedReaderOutput(bytes)
    precondition(out == expected, "the reader gave \(out.count) lines, the oracle \(expected.count)")
}

/// What `MPDClient` must deliver: the answers (OK pairs count, or the ACK's text), and whether it
/// greeted.
func expectedMPD(_ bytes: [UInt8]) -> (greeted: Bool, answers: [String]) {
    let lines = oracleLines(bytes)
    guard let first = lines.first, first.count <= maximumLine, first.starts(with: Array("OK MPD ".utf8)) else { return (false, []) }
    var answers: [String] = []
    var pairs = 0
    for line in lines.dropFirst() {
        if line.count > maximumLine { break }
        if line == Array("OK".utf8) {
            answers.append("ok \(pairs)")
            pairs = 0
        } else if line.starts(with: Array("ACK ".utf8)) {
            answers.append("ack " + String(decoding: line.dropFirst(4), as: UTF8.self))
            pairs = 0
        } else {
            if pairs >= MPDClient.maximumAnswerLines { break }
            if line.contains(UInt8(ascii: ":")) { pairs += 1 }
        }
    }
    return (true, answers)
}

func mpdPeer(_ bytes: [UInt8], piece: Int) {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { fatalError("socketpair: \(errno)") }
    let peer = pair[1]
    _ = fcntl(peer, F_SETFL, fcntl(peer, F_GETFL) | O_NONBLOCK)
    let client = MPDClient(connection: StreamConnection(adopting: pair[0], address: "fuzz-mpd"))
    var answers: [String] = []
    var failures = 0
    // The handlers hold the client weakly (it holds them), so each run frees its descriptors.
    weak let weakClient = client
    func next() {
        weakClient?.command("status") { answer in
            switch answer {
            case .ok(let pairs): answers.append("ok \(pairs.count)")
            case .refused(let text): answers.append("ack " + text)
            }
            next()
        }
    }
    client.onGreeted = { next() }
    client.onFailure = { _ in failures += 1 }
    // The peer writes its bytes while the client reads; what MPD is sent is drained and ignored.
    var offset = 0
    var sink = [UInt8](repeating: 0, count: 65_536)
    func turn() {
        _ = read(peer, &sink, sink.count)
        client.ready(revents: Int16(POLLIN))
        precondition(client.connection.reader.bufferedByteCount <= maximumLine + 65_536 + 1, "buffer \(client.connection.reader.bufferedByteCount)")
    }
    while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        let written = bytes[offset..<end].withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written > 0 { offset += written }
        turn()
        if client.failed { break }
    }
    // The peer's end: the client reads to the end of its bytes, and may still write (its commands).
    shutdown(peer, Int32(SHUT_WR))
    var guardTurns = 0
    while !client.failed {
        turn()
        guardTurns += 1
        precondition(guardTurns < 100_000, "the client never saw the end")
    }
    close(peer)
    precondition(failures == 1, "onFailure called \(failures) times")
    let expected = expectedMPD(bytes)
    precondition(client.greeted == expected.greeted, "greeted \(client.greeted), the oracle says \(expected.greeted)")
    precondition(answers == expected.answers, "answers \(answers.prefix(5)) (\(answers.count)); the oracle's \(expected.answers.prefix(5)) (\(expected.answers.count))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let header = data[0]
    var bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if header & 0x10 != 0 { bytes.insert(contentsOf: longLine, at: bytes.count / 2) }
    // At most 64 pieces: a 64 KiB line is not sent a byte at a time (the splits that matter — a
    // newline at a piece's edge, a line across many pieces — happen with fewer).
    let piece = max(pieceSizes[Int((header >> 1) & 0x7)], (bytes.count + 63) / 64)
    if header & 1 == 0 { mpdPeer(bytes, piece: piece) } else { connectInput(bytes, piece: piece) }
    return 0
}
