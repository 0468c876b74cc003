import FlywheelCore
import Glibc

/// One HTTP/1.1 GET on a connection of its own (`Connection: close`), for a loop that polls it:
/// the connect, the request and the response never wait, the response is read with
/// ``HTTPResponseReader``'s bounds, and the whole exchange has a deadline. A client makes one at a
/// time, so what it asks next can be the latest of what it was told meanwhile.
public final class HTTPExchange {
    /// Why an exchange failed.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The socket: the connect, a write or a read.
        case system(SystemError)
        /// The response broke a rule or a bound.
        case response(HTTPResponseError)
        /// No complete response within the time limit.
        case timedOut(seconds: Double)

        public var description: String {
            switch self {
            case .system(let error): return error.description
            case .response(let error): return error.description
            case .timedOut(let seconds): return "it did not answer within \(Int(seconds)) s"
            }
        }
    }

    /// `host:port`, for messages.
    public let address: String
    /// The request target (`/api/v1/getState`).
    public let target: String
    public let connection: StreamConnection
    /// When the exchange fails if the response is not complete (CLOCK_MONOTONIC).
    public let deadline: Nanoseconds
    private let timeout: Nanoseconds
    private var reader: HTTPResponseReader
    /// The response or the failure, once the exchange is over.
    public private(set) var outcome: Result<HTTPResponse, Failure>?

    /// Starts a GET of `target` from `address` (`host[:port]`, `defaultPort` when it has none),
    /// to be over by `now + timeout`. Fails at once when the name does not resolve or the connect
    /// is refused on the spot.
    public init(
        get target: String, from address: String, defaultPort: String = "80", at now: Nanoseconds, timeout: Nanoseconds = 5_000_000_000,
        maximumBodyBytes: Int = 65_536
    ) throws(SystemError) {
        self.address = address
        self.target = target
        self.timeout = timeout
        deadline = now + timeout
        reader = HTTPResponseReader(maximumBodyBytes: maximumBodyBytes)
        connection = try StreamConnection(connectingTo: address, defaultPort: defaultPort, maximumQueuedBytes: 16_384)
        let host: String
        switch NetworkAddress.parse(address, defaultPort: defaultPort) {
        case .host(let name, let port):
            let bracketed = name.contains(":") ? "[\(name)]" : name
            host = port == "80" ? bracketed : "\(bracketed):\(port)"
        case .path: host = "localhost"
        }
        let request = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
        try connection.send(raw: Array(request.utf8))
    }

    /// The descriptor and its events while the exchange is under way.
    public var pollRequest: pollfd? {
        outcome == nil ? pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0) : nil
    }

    /// `poll` reported `revents`: the outcome once the exchange is over.
    @discardableResult
    public func ready(revents: Int16) -> Result<HTTPResponse, Failure>? {
        guard outcome == nil else { return outcome }
        do {
            if connection.isConnecting { try connection.finishConnecting() }
            if revents & Int16(POLLOUT) != 0 { try connection.flush() }
        } catch {
            return end(.failure(.system(error)))
        }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return nil }
        var response: HTTPResponse?
        var failure: HTTPResponseError?
        let open = connection.receive(rawMaximumBytes: 256 * 1024) { bytes in
            guard response == nil, failure == nil else { return }
            do { response = try reader.append(bytes) } catch { failure = (error as? HTTPResponseError) ?? .endedEarly }
        }
        if let failure { return end(.failure(.response(failure))) }
        if let response { return end(.success(response)) }
        if !open {
            if let error = connection.lastError { return end(.failure(.system(error))) }
            do {
                if let response = try reader.finish() { return end(.success(response)) }
            } catch { return end(.failure(.response(error))) }
        }
        return nil
    }

    /// The deadline passed: the exchange fails unless it is over.
    @discardableResult
    public func expire(at now: Nanoseconds) -> Result<HTTPResponse, Failure>? {
        guard outcome == nil, now >= deadline else { return outcome }
        return end(.failure(.timedOut(seconds: Double(timeout) / 1e9)))
    }

    private func end(_ result: Result<HTTPResponse, Failure>) -> Result<HTTPResponse, Failure> {
        outcome = result
        return result
    }
}
