/// Lines cut from a byte stream, with a bound: a line longer than ``maximumLineBytes`` is never
/// held — it is reported once as ``Line/tooLong`` and its bytes are dropped up to its newline. The
/// buffer so never holds more than the limit plus one read, and each byte is scanned for a newline
/// once, however the reads cut the stream. Lines are bytes, not text: what a peer sent reaches its
/// reader unchanged (invalid UTF-8 included).
public struct LineReader: Sendable {
    /// A line (without its newline), or the report of one that was too long.
    public enum Line: Equatable, Sendable {
        /// A complete line.
        case line([UInt8])
        /// A line over the limit, dropped (its first bytes given, at most 64).
        case tooLong(prefix: [UInt8])
    }

    /// The longest line kept, in bytes (default 64 KiB, flywheeld's own limit).
    public let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// How far past `start` has been scanned for a newline.
    private var scanned = 0
    /// Dropping the rest of an over-long line up to its newline.
    private var discarding = false
    /// Whether the end of the stream was seen.
    public private(set) var ended = false

    /// Creates a reader for lines of at most `maximumLineBytes`.
    public init(maximumLineBytes: Int = 65_536) {
        precondition(maximumLineBytes > 0)
        self.maximumLineBytes = maximumLineBytes
    }

    /// Bytes held, for bounds checks and tests.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The end of the stream: what is left without a newline becomes a last line.
    public mutating func finish() {
        guard !ended else { return }
        ended = true
        if bufferedByteCount > 0, !discarding { buffer.append(0x0A) }
    }

    /// The next line, or nil until more bytes come.
    public mutating func next() -> Line? {
        while true {
            var index = start + scanned
            while index < buffer.count, buffer[index] != 0x0A { index += 1 }
            if index < buffer.count {
                // A newline at `index`.
                let line = Array(buffer[start..<index])
                start = index + 1
                scanned = 0
                if discarding {
                    discarding = false
                    continue  // the end of an over-long line, already reported
                }
                if line.count > maximumLineBytes { return .tooLong(prefix: Array(line.prefix(64))) }
                return .line(line)
            }
            scanned = index - start
            guard scanned > maximumLineBytes else {
                if discarding { drop() }
                return nil
            }
            // Over the limit with no newline: report it once and drop what came.
            let prefix = Array(buffer[start..<(start + min(64, scanned))])
            let wasDiscarding = discarding
            discarding = true
            drop()
            if !wasDiscarding { return .tooLong(prefix: prefix) }
            return nil
        }
    }

    /// Drops everything unread (the middle of an over-long line).
    private mutating func drop() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * maximumLineBytes + 65_536)
        start = 0
        scanned = 0
    }
}
