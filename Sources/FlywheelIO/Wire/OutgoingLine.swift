import FlywheelCore
import Glibc

/// One message on its way to every client at once: its head and tail as two pieces of a
/// `sendmsg`, laid out once, with the client's seq digits between them — so a delivered line
/// costs the digits and the call, nothing else (no copy of the line, no allocation).
struct OutgoingLine {
    private var header: msghdr
    private let pieces: UnsafeMutablePointer<iovec>
    /// The message's bytes without the digits.
    private let fixedCount: Int
    /// The whole line's bytes, with the digits of the last send.
    private(set) var count = 0

    /// Lays `message` out for the duration of `body`.
    static func with<Result>(_ message: ServerMessage, _ body: (inout OutgoingLine) -> Result) -> Result {
        message.wire.withUnsafeBytes { wire in with(wire, seqIndex: message.seqIndex, body) }
    }

    /// Lays out a message's bytes `wire`, its seq at `seqIndex`, for the duration of `body`.
    @inline(__always)
    static func with<Result>(_ wire: UnsafeRawBufferPointer, seqIndex: Int, _ body: (inout OutgoingLine) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3) { pieces in
            var line = OutgoingLine(wire: wire, seqIndex: seqIndex, pieces: pieces.baseAddress!)
            return body(&line)
        }
    }

    private init(wire: UnsafeRawBufferPointer, seqIndex: Int, pieces: UnsafeMutablePointer<iovec>) {
        let base = UnsafeMutableRawPointer(mutating: wire.baseAddress!)
        pieces[0] = iovec(iov_base: base, iov_len: seqIndex)
        pieces[2] = iovec(iov_base: base + seqIndex, iov_len: wire.count - seqIndex)
        self.pieces = pieces
        fixedCount = wire.count
        header = msghdr()
        header.msg_iov = pieces
        header.msg_iovlen = 3
    }

    /// One `sendmsg` of the whole line with the seq's `digits` (``SeqDigits``; they need only last
    /// through the call) to `fd`: the bytes written, or 0 when none were (the socket is full, or
    /// the client is gone: the caller queues it and the flush finds out).
    @inline(__always)
    mutating func send(digits seqDigits: UnsafeRawBufferPointer, to fd: Int32) -> Int {
        pieces[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: seqDigits.baseAddress!), iov_len: seqDigits.count)
        count = fixedCount &+ seqDigits.count  // (a line and its digits are far from Int.max)
        let result = try? Syscall.nonBlocking("sendmsg", "client \(fd)") { Glibc.sendmsg(fd, &header, Int32(MSG_NOSIGNAL)) }
        guard case .processed(let written)? = result else { return 0 }
        return written
    }
}

extension OutgoingLine {
    /// One `sendmsg` of a queued `message` with `seq`, from byte `skipped` on: the message's
    /// head, the seq's digits (on the stack) and its tail as up to three pieces. Returns what
    /// sendmsg(2) returns.
    static func send(_ message: ServerMessage, seq: UInt64, skipping skipped: Int, to fd: Int32) -> Int {
        withUnsafeTemporaryAllocation(byteCount: JSONValue.decimalCapacity, alignment: 1) { digits in
            let digitCount = JSONValue.writeDecimal(seq, into: digits)
            let digitStart = digits.baseAddress! + (digits.count - digitCount)
            return message.wire.withUnsafeBytes { wire in
                withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3) { pieces in
                    let head = message.seqIndex
                    var skip = skipped
                    var used = 0
                    func add(_ base: UnsafeRawPointer, _ length: Int) {
                        if skip >= length {
                            skip -= length
                            return
                        }
                        pieces[used] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + skip), iov_len: length - skip)
                        used += 1
                        skip = 0
                    }
                    add(wire.baseAddress!, head)
                    add(UnsafeRawPointer(digitStart), digitCount)
                    add(wire.baseAddress! + head, wire.count - head)
                    var header = msghdr()
                    header.msg_iov = pieces.baseAddress
                    header.msg_iovlen = used
                    return Glibc.sendmsg(fd, &header, Int32(MSG_NOSIGNAL))
                }
            }
        }
    }
}
