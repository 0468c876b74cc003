import FlywheelIO
import Testing

/// The bridges' HTTP/1.1 response reader (RFC 9112): a body framed by Content-Length, by chunked
/// transfer coding or by the end of the stream, whole however the reads cut it; the head and the
/// body bounded, a bound passed an error at once rather than more memory.
@Suite("HTTPResponseReader")
struct HTTPResponseReaderTests {
    /// Feeds `text` in reads of `size` bytes: the response, or the error.
    static func read(_ text: String, size: Int, maximumBodyBytes: Int = 64, close: Bool = false) -> Result<HTTPResponse?, HTTPResponseError> {
        var reader = HTTPResponseReader(maximumHeadBytes: 256, maximumBodyBytes: maximumBodyBytes)
        let bytes = Array(text.utf8)
        do {
            for start in stride(from: 0, to: bytes.count, by: size) {
                if let response = try reader.append(bytes[start..<min(bytes.count, start + size)]) { return .success(response) }
            }
            return .success(close ? try reader.finish() : nil)
        } catch { return .failure(error) }
    }

    @Test("Content-Length, chunked (with an extension and a trailer) and close-delimited bodies come out whole at any read size")
    func framings() {
        let length = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"volume\":42}"
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n{\"vol\r\n8\r\nume\":42}\r\n0\r\nX-Trailer: a\r\n\r\n"
        let untilClose = "HTTP/1.0 200 OK\r\n\r\n{\"volume\":42}"
        for size in 1...12 {
            #expect((try? Self.read(length, size: size).get())?.body == Array(#"{"volume":42}"#.utf8), "\(size)")
            #expect((try? Self.read(chunked, size: size).get())?.body == Array(#"{"volume":42}"#.utf8), "\(size)")
            #expect((try? Self.read(untilClose, size: size).get())?.body == nil, "not complete before the end: \(size)")
            #expect((try? Self.read(untilClose, size: size, close: true).get())?.body == Array(#"{"volume":42}"#.utf8), "\(size)")
        }
        let response = try? Self.read(length, size: 100).get()
        #expect(response?.status == 200 && response?.headers["content-type"] == "application/json")
        #expect((try? Self.read("HTTP/1.1 204 No Content\r\n\r\n", size: 3).get())?.status == 204)
    }

    @Test("bounds: a Content-Length over the cap fails at the head; an endless chunked body, a close-delimited one and a head without end fail at the bound")
    func bounds() {
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n", size: 7) == .failure(.bodyTooLong(limit: 64)))
        let endless = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "10\r\n0123456789abcdef\r\n", count: 10)
        #expect(Self.read(endless, size: 9) == .failure(.bodyTooLong(limit: 64)))
        #expect(Self.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffff\r\n", size: 9) == .failure(.bodyTooLong(limit: 64)))
        #expect(Self.read("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 65), size: 10) == .failure(.bodyTooLong(limit: 64)))
        #expect(Self.read("HTTP/1.1 200 OK\r\nX: " + String(repeating: "y", count: 300), size: 10) == .failure(.headTooLong(limit: 256)))
    }

    @Test("what is not HTTP is an error: a status line, a header field without a colon, a chunk size that is not hexadecimal, an early end")
    func malformed() {
        #expect(Self.read("SSH-2.0-OpenSSH\r\n\r\n", size: 4) == .failure(.malformedStatusLine))
        #expect(Self.read("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", size: 4) == .failure(.malformedHeader))
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n", size: 4) == .failure(.malformedHeader))
        #expect(Self.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", size: 4) == .failure(.malformedChunk))
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", size: 4, close: true) == .failure(.endedEarly))
    }
}
