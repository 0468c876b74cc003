import Glibc
import Synchronization

/// A fake MPD on 127.0.0.1 (a port the kernel picks), served from threads of the test process: it
/// greets each connection with `OK MPD 0.23.5` and then behaves as `behaviour` says, a faulty
/// peer or a small player. It records every connection and command, so a test can check what the
/// bridge did. `stop` ends every connection and the listener.
final class FakeMPD: Sendable {
    enum Behaviour: Sendable {
        /// Reads commands, never answers.
        case silent
        /// Answers the first command with `bytes` bytes without a newline, then nothing.
        case hugeLine(bytes: Int)
        /// Answers `status` with a few of its lines, never with the rest or its `OK`.
        case stallMidAnswer
        /// Streams bytes without a newline, as fast as the connection takes them, after its greeting.
        case endlessLine
        /// Closes each connection right after its greeting.
        case greetAndDrop
        /// A small player: status, currentsong, idle/noidle, setvol, seekcur, password, transport.
        case player
    }

    /// The player's state (``Behaviour/player``).
    struct Player: Sendable {
        var volume: Int? = 50
        var elapsed = 42.5
        var duration = 180.0
        var state = "pause"
        /// What `setvol` answers instead of `OK` (a full `ACK …` line), when given.
        var setvolAck: String?
        /// The password every other command needs first, when given.
        var password: String?
    }

    /// What the bridge did.
    struct Record: Sendable {
        /// The monotonic time of each connection.
        var connections: [Double] = []
        /// Each connection's command lines, in order.
        var commands: [[String]] = []
        /// Every `setvol` argument, refused or not.
        var setvols: [Int] = []
        /// Bytes of an endless or huge line sent so far.
        var streamedBytes = 0
        /// Huge lines that have ended: sent whole, or cut off by the bridge closing the connection.
        var hugeLinesEnded = 0
    }

    static let greeting = "OK MPD 0.23.5\n"

    let port: Int
    let behaviour: Behaviour
    private let listener: Int32
    private let player: Mutex<Player>
    private let log = Mutex(Record())
    /// Accepted connections still open (shut down by `stop`).
    private let open = Mutex<Set<Int32>>([])
    private let stopped = Atomic<Bool>(false)

    init(_ behaviour: Behaviour, player: Player = Player()) throws {
        self.behaviour = behaviour
        self.player = Mutex(player)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw TestFailure("the fake MPD could not listen on 127.0.0.1: errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        SlowMPDProxy.thread { [self] in acceptLoop() }
    }

    /// `127.0.0.1:PORT`, for `--mpd`.
    var address: String { "127.0.0.1:\(port)" }

    var record: Record { log.withLock { $0 } }
    var state: Player { player.withLock { $0 } }
    var connectionCount: Int { record.connections.count }
    /// Every command of every connection, in order.
    var allCommands: [String] { record.commands.flatMap { $0 } }

    func setPlayer(_ change: (inout Player) -> Void) {
        player.withLock { change(&$0) }
    }

    /// Ends every connection and stops listening.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accepting thread, which closes it
        open.withLock { fds in for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if stopped.load(ordering: .relaxed) {
                close(fd)
                break
            }
            let index = log.withLock { record in
                record.connections.append(MonotonicClockForTests.now())
                record.commands.append([])
                return record.commands.count - 1
            }
            open.withLock { _ = $0.insert(fd) }
            SlowMPDProxy.thread { [self] in
                serve(fd, connection: index)
                open.withLock { _ = $0.remove(fd) }
                close(fd)
            }
        }
        close(listener)
    }

    /// Sends all of `bytes`; false when the connection is gone or the fake is stopped.
    @discardableResult
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            if stopped.load(ordering: .relaxed) { return false }
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }  // a send timeout: look at `stopped`
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    private func serve(_ fd: Int32, connection: Int) {
        // Sends time out every 100 ms, so that a stream the bridge does not read still sees `stop`.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        send(fd, Self.greeting)
        switch behaviour {
        case .greetAndDrop:
            return
        case .endlessLine:
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
            // At most 512 MiB a connection: a bridge without a line limit is not allowed to take the machine down.
            var sent = 0
            while !stopped.load(ordering: .relaxed), sent < 512 << 20 {
                guard send(fd, chunk) else { return }
                sent += chunk.count
                log.withLock { $0.streamedBytes += chunk.count }
            }
            return
        default:
            break
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var session = Session()
        var answeredFirst = false
        while !stopped.load(ordering: .relaxed) {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            buffer += chunk[0..<n]
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                log.withLock { $0.commands[connection].append(line) }
                switch behaviour {
                case .silent, .endlessLine, .greetAndDrop:
                    break
                case .hugeLine(let bytes):
                    guard !answeredFirst else { break }
                    answeredFirst = true
                    defer { log.withLock { $0.hugeLinesEnded += 1 } }
                    var left = bytes
                    let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
                    while left > 0 {
                        let count = min(left, piece.count)
                        guard send(fd, Array(piece[..<count])) else { return }
                        left -= count
                        log.withLock { $0.streamedBytes += count }
                    }
                case .stallMidAnswer:
                    if line == "status" && !answeredFirst {
                        answeredFirst = true
                        send(fd, "volume: 50\nrepeat: 0\nrandom: 0\n")
                    }
                case .player:
                    if let answer = play(line, session: &session, connection: connection) { send(fd, answer) }
                }
            }
        }
    }

    /// One player connection's own state.
    struct Session {
        var authorized = false
        /// While `idle` waits: the subsystems it waits for (empty: all).
        var idle: Set<String>?
        /// A command list being collected, and whether it is a `command_list_ok_begin` one.
        var list: [String]?
        var listOK = false
    }

    /// Changes each connection has not been told of yet (by connection), as MPD keeps them for `idle`.
    private let changes = Mutex<[Int: Set<String>]>([:])

    /// A change of `subsystem` (player, mixer) for every connection's next `idle`. Only a later
    /// `idle` sees it: a connection already waiting is not woken (no test needs it).
    private func changed(_ subsystem: String) {
        let count = log.withLock { $0.commands.count }
        changes.withLock { pending in for connection in 0..<count { pending[connection, default: []].insert(subsystem) } }
    }

    /// The player's answer to one line, nil when there is none yet (`idle` waits, a command list collects).
    private func play(_ line: String, session: inout Session, connection: Int) -> String? {
        if session.idle != nil {
            // `noidle` (or, against the protocol, any command) ends the wait: nothing it waits for changed.
            session.idle = nil
            if line == "noidle" { return "OK\n" }
            return "OK\n" + (play(line, session: &session, connection: connection) ?? "")
        }
        if line == "noidle" { return nil }  // MPD ignores a noidle outside idle
        if let list = session.list {
            guard line == "command_list_end" else {
                session.list = list + [line]
                return nil
            }
            session.list = nil
            var out = ""
            for command in list {
                let answer = self.answer(command, session: &session, connection: connection) ?? "OK\n"
                if answer.hasPrefix("ACK") { return out + answer }
                out += answer.dropLast(3) + (session.listOK ? "list_OK\n" : "")
            }
            return out + "OK\n"
        }
        if line == "command_list_begin" || line == "command_list_ok_begin" {
            session.list = []
            session.listOK = line == "command_list_ok_begin"
            return nil
        }
        return answer(line, session: &session, connection: connection)
    }

    /// The player's answer to one command (nil while it waits in `idle`).
    private func answer(_ line: String, session: inout Session, connection: Int) -> String? {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        let command = words.first ?? ""
        let argument = words.count > 1 ? words[1].trimmingCharacters(quotes: true) : ""
        return player.withLock { player -> String? in
            if command == "password" {
                if argument == player.password { session.authorized = true; return "OK\n" }
                return "ACK [3@0] {password} incorrect password\n"
            }
            if player.password != nil && !session.authorized {
                return "ACK [4@0] {\(command)} you don't have permission for \"\(command)\"\n"
            }
            switch command {
            case "idle":
                let wanted = Set(argument.split(separator: " ").map { String($0).trimmingCharacters(quotes: true) })
                let told = changes.withLock { pending -> Set<String> in
                    let due = (pending[connection] ?? []).filter { wanted.isEmpty || wanted.contains($0) }
                    pending[connection]?.subtract(due)
                    return due
                }
                guard told.isEmpty else { return told.sorted().map { "changed: \($0)\n" }.joined() + "OK\n" }
                session.idle = wanted
                return nil
            case "status":
                var lines = ["volume: \(player.volume ?? -1)", "repeat: 0", "random: 0", "single: 0", "consume: 0", "playlist: 2",
                             "playlistlength: 1", "mixrampdb: 0", "state: \(player.state)"]
                if player.state != "stop" {
                    lines += ["song: 0", "songid: 1", "time: \(Int(player.elapsed)):\(Int(player.duration))",
                              "elapsed: \(Self.fixed(player.elapsed))", "bitrate: 0", "duration: \(Self.fixed(player.duration))", "audio: 22050:16:1"]
                }
                return (lines + ["OK"]).joined(separator: "\n") + "\n"
            case "currentsong":
                return "file: tone.wav\nLast-Modified: 2024-01-01T00:00:00Z\nTime: \(Int(player.duration))\nduration: \(Self.fixed(player.duration))\nPos: 0\nId: 1\nOK\n"
            case "setvol":
                let volume = Int(argument) ?? -1
                log.withLock { $0.setvols.append(volume) }
                if let ack = player.setvolAck { return ack + "\n" }
                guard (0...100).contains(volume) else { return "ACK [2@0] {setvol} Invalid volume value\n" }
                player.volume = volume
                changed("mixer")
            case "seekcur":
                if let seconds = Double(argument) { player.elapsed = min(max(0, seconds), player.duration) }
                changed("player")
            case "play":
                player.state = "play"
                changed("player")
            case "pause":
                player.state = argument == "0" ? "play" : "pause"
                changed("player")
            case "stop":
                player.state = "stop"
                changed("player")
            case "next", "previous":
                changed("player")
            default:
                break
            }
            return "OK\n"
        }
    }

    static func fixed(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension String {
    /// Without surrounding double quotes (MPD's arguments may be quoted).
    fileprivate func trimmingCharacters(quotes: Bool) -> String {
        guard quotes, count >= 2, hasPrefix("\""), hasSuffix("\"") else { return self }
        return String(dropFirst().dropLast())
    }
}
