/// An HTTP/1.1 response.
public struct HTTPResponse: Equatable, Sendable {
    /// The status code (200).
    public var status: Int
    /// The header fields, names in lower case (a repeated field's values joined with ", ").
    public var headers: [String: String]
    /// The body, its transfer coding (chunked) undone.
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a response could not be read.
public enum HTTPResponseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The status line was not `HTTP/1.x NNN reason`.
    case malformedStatusLine
    /// The status line and header fields passed the limit without their blank line.
    case headTooLong(limit: Int)
    /// A header field had no colon, or a Content-Length was not a number.
    case malformedHeader
    /// The body passed the limit.
    case bodyTooLong(limit: Int)
    /// A chunk's size line was not hexadecimal, or too long.
    case malformedChunk
    /// The peer closed before the response was complete.
    case endedEarly

    public var description: String {
        switch self {
        case .malformedStatusLine: return "it answered with something other than an HTTP/1.x status line"
        case .headTooLong(let limit): return "its answer's header passed \(limit / 1024) KiB"
        case .malformedHeader: return "its answer had a malformed header field"
        case .bodyTooLong(let limit): return "its answer's body passed \(limit / 1024) KiB"
        case .malformedChunk: return "its answer had a malformed chunk"
        case .endedEarly: return "it closed the connection before its answer was complete"
        }
    }
}

/// One HTTP/1.1 response read from a byte stream, with bounds: the status line and header fields
/// at most ``maximumHeadBytes``, the body at most ``maximumBodyBytes``, framed by Content-Length,
/// by chunked transfer coding, or by the end of the stream. Bytes are taken as they come
/// (``append(_:)``); nothing past a bound is ever held.
public struct HTTPResponseReader: Sendable {
    public let maximumHeadBytes: Int
    public let maximumBodyBytes: Int
    private enum Stage: Sendable {
        case head
        case length(Int)
        case chunkSize
        case chunkData(Int)
        case chunkDataEnd
        case trailer
        case untilClose
        case done
    }
    private var stage = Stage.head
    /// Bytes not yet parsed.
    private var pending: [UInt8] = []
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []
    private var trailerBytes = 0

    public init(maximumHeadBytes: Int = 16_384, maximumBodyBytes: Int = 65_536) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Bytes held, for bounds checks and tests.
    public var bufferedByteCount: Int { pending.count + body.count }

    /// Adds bytes read from the stream: the response once it is complete (later bytes are ignored).
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) throws(HTTPResponseError) -> HTTPResponse? where Bytes.Element == UInt8 {
        if case .done = stage { return nil }
        pending.append(contentsOf: bytes)
        return try parse()
    }

    /// The end of the stream: the response, when the end is what frames its body.
    public mutating func finish() throws(HTTPResponseError) -> HTTPResponse? {
        switch stage {
        case .done: return nil
        case .untilClose:
            stage = .done
            return HTTPResponse(status: status, headers: headers, body: body)
        default: throw .endedEarly
        }
    }

    private mutating func parse() throws(HTTPResponseError) -> HTTPResponse? {
        var start = 0
        defer { pending.removeSubrange(..<min(start, pending.count)) }
        while true {
            switch stage {
            case .done:
                return nil
            case .head:
                guard let end = Self.find([13, 10, 13, 10], in: pending, from: start) else {
                    if pending.count - start > maximumHeadBytes { throw .headTooLong(limit: maximumHeadBytes) }
                    return nil
                }
                guard end - start <= maximumHeadBytes else { throw .headTooLong(limit: maximumHeadBytes) }
                try readHead(pending[start..<end])
                start = end + 4
                if case .done = stage { return HTTPResponse(status: status, headers: headers, body: body) }
            case .length(let remaining):
                let left = try takeBody(remaining, from: &start)
                guard left == 0 else {
                    stage = .length(left)
                    return nil
                }
                return complete()
            case .untilClose:
                try appendBody(pending[start...])
                start = pending.count
                return nil
            case .chunkSize:
                guard let end = Self.find([13, 10], in: pending, from: start) else {
                    if pending.count - start > 1024 { throw .malformedChunk }
                    return nil
                }
                let line = pending[start..<end].prefix { $0 != UInt8(ascii: ";") }
                guard let size = Int(String(decoding: line, as: UTF8.self).trimmingSpaces(), radix: 16), size >= 0 else { throw .malformedChunk }
                guard body.count + size <= maximumBodyBytes else { throw .bodyTooLong(limit: maximumBodyBytes) }
                start = end + 2
                stage = size == 0 ? .trailer : .chunkData(size)
            case .chunkData(let remaining):
                let left = try takeBody(remaining, from: &start)
                guard left == 0 else {
                    stage = .chunkData(left)
                    return nil
                }
                stage = .chunkDataEnd
            case .chunkDataEnd:
                guard pending.count - start >= 2 else { return nil }
                guard pending[start] == 13, pending[start + 1] == 10 else { throw .malformedChunk }
                start += 2
                stage = .chunkSize
            case .trailer:
                // Trailer fields, ignored, up to the blank line.
                guard let end = Self.find([13, 10], in: pending, from: start) else {
                    if trailerBytes + pending.count - start > maximumHeadBytes { throw .headTooLong(limit: maximumHeadBytes) }
                    return nil
                }
                trailerBytes += end - start + 2
                if trailerBytes > maximumHeadBytes { throw .headTooLong(limit: maximumHeadBytes) }
                let blank = end == start
                start = end + 2
                if blank { return complete() }
            }
        }
    }

    private mutating func complete() -> HTTPResponse {
        stage = .done
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// Takes up to `remaining` body bytes from `pending` at `start`: how many are still to come.
    private mutating func takeBody(_ remaining: Int, from start: inout Int) throws(HTTPResponseError) -> Int {
        let count = min(remaining, pending.count - start)
        try appendBody(pending[start..<start + count])
        start += count
        return remaining - count
    }

    private mutating func appendBody(_ bytes: ArraySlice<UInt8>) throws(HTTPResponseError) {
        guard body.count + bytes.count <= maximumBodyBytes else { throw .bodyTooLong(limit: maximumBodyBytes) }
        body.append(contentsOf: bytes)
    }

    /// The status line and header fields: the body's framing chosen from them.
    private mutating func readHead(_ bytes: ArraySlice<UInt8>) throws(HTTPResponseError) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = (lines.first ?? "").split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3, let code = Int(statusParts[1]) else {
            throw .malformedStatusLine
        }
        status = code
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedHeader }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingSpaces()
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        if code / 100 == 1 || code == 204 || code == 304 {
            // No body. (An interim 1xx answer is not expected: the request asks for none.)
            stage = .done
            return
        }
        if let coding = headers["transfer-encoding"], coding.lowercased().hasSuffix("chunked") {
            stage = .chunkSize
        } else if let length = headers["content-length"] {
            guard let count = Int(length), count >= 0 else { throw .malformedHeader }
            guard count <= maximumBodyBytes else { throw .bodyTooLong(limit: maximumBodyBytes) }
            stage = .length(count)
        } else {
            stage = .untilClose
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count - start >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] {
                var match = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    match = false
                    break
                }
                if match { return index }
            }
            index += 1
        }
        return nil
    }
}

extension String {
    /// Without the spaces and tabs around it.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
