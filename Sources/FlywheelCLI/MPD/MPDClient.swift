import FlywheelIO

/// MPD's text protocol over a Unix socket or TCP: one command at a time, `OK` or `ACK` ends each
/// answer; `idle player` waits for a change and `noidle` ends the wait.
final class MPDClient {
    let socket: LineSocket

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects and reads the `OK MPD x.y.z` greeting.
    init(address: String) throws {
        socket = try LineSocket(connectingTo: address)
        guard let greeting = try socket.readLine(), greeting.hasPrefix("OK MPD ") else {
            throw Failure(description: "\(address) did not greet like MPD")
        }
    }

    /// Sends a command and reads its answer as key/value pairs.
    func command(_ text: String) throws -> [(String, String)] {
        try socket.send(text)
        return try answer()
    }

    /// Reads one answer (after a command was sent).
    func answer() throws -> [(String, String)] {
        var pairs: [(String, String)] = []
        while let line = try socket.readLine() {
            if line == "OK" { return pairs }
            if line.hasPrefix("ACK ") { throw Failure(description: "MPD refused it: \(line.dropFirst(4))") }
            if let colon = line.firstIndex(of: ":") {
                pairs.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingLeadingSpace))
            }
        }
        throw Failure(description: "MPD at \(socket.address) closed the connection")
    }

    /// The player's state: elapsed and duration in seconds (0 without a song), whether it plays,
    /// and the mixer's volume (nil without a mixer).
    func playerStatus() throws -> (elapsed: Double, duration: Double, playing: Bool, volume: Int?) {
        let status = try command("status")
        func value(_ key: String) -> Double? { status.first(where: { $0.0 == key }).flatMap { Double($0.1) } }
        var duration = value("duration")
        if duration == nil {
            let song = try command("currentsong")
            duration = song.first(where: { $0.0 == "duration" || $0.0 == "Time" }).flatMap { Double($0.1) }
        }
        let state = status.first(where: { $0.0 == "state" })?.1 ?? "stop"
        let volume = value("volume").map { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        return (value("elapsed") ?? 0, duration ?? 0, state == "play", volume)
    }
}

extension String {
    var trimmingLeadingSpace: String { String(drop(while: { $0 == " " })) }
}
