import FlywheelIO
import Testing

/// The bridges' one line reader: lines whole however the stream is cut, an over-long line reported
/// once and never held, bytes unchanged.
@Suite("LineReader")
struct LineReaderTests {
    static func lines(_ chunks: [[UInt8]], limit: Int = 8) -> [LineReader.Line] {
        var reader = LineReader(maximumLineBytes: limit)
        var out: [LineReader.Line] = []
        for chunk in chunks {
            reader.append(chunk)
            while let line = reader.next() { out.append(line) }
        }
        reader.finish()
        while let line = reader.next() { out.append(line) }
        return out
    }

    @Test("lines cut anywhere by the reads come out whole, and the tail without a newline last")
    func cutAnywhere() {
        let bytes = Array("ab\ncd\n\nlast".utf8)
        for size in 1...bytes.count {
            let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
            #expect(Self.lines(chunks) == [.line(Array("ab".utf8)), .line(Array("cd".utf8)), .line([]), .line(Array("last".utf8))], "\(size)")
        }
    }

    @Test("a line over the limit is one tooLong, its tail is not a line, and the next line is whole")
    func overLong() {
        let long = Array("0123456789ABCDEF{\"cmd\":\"x\"}".utf8)
        for size in [1, 3, 8, 64] {
            let bytes = long + [0x0A] + Array("ok\n".utf8)
            let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
            let out = Self.lines(chunks)
            #expect(out.map(\.kind) == ["tooLong", "line ok"], "\(size)")
            if case .tooLong(let prefix) = out.first { #expect(prefix.starts(with: Array("01234567".utf8)), "\(size)") }
        }
    }

    @Test("the buffer never holds more than the limit and one read while a line without a newline streams in")
    func bounded() {
        var reader = LineReader(maximumLineBytes: 1024)
        var reports = 0
        for _ in 0..<10_000 {
            reader.append([UInt8](repeating: 0x78, count: 500))
            while let line = reader.next() { if case .tooLong = line { reports += 1 } }
            #expect(reader.bufferedByteCount <= 1024 + 500)
        }
        #expect(reports == 1)
    }

    @Test("invalid UTF-8 and NUL bytes pass unchanged")
    func bytesUnchanged() {
        #expect(Self.lines([[0xFF, 0xFE, 0x00, 0x41, 0x0A]]) == [.line([0xFF, 0xFE, 0x00, 0x41])])
    }
}

extension LineReader.Line {
    /// Whether a line or a report, and the line's bytes (a report's prefix depends on the reads).
    var kind: String {
        switch self {
        case .line(let bytes): return "line " + String(decoding: bytes, as: UTF8.self)
        case .tooLong: return "tooLong"
        }
    }
}
