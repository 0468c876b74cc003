import FlywheelCore
import Glibc

/// A real headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// it reads commands on its descriptor 3 and writes answers and events on 4, each a JSON text ended
/// by a NUL byte). Socket pairs stand in for the pipes so that a browser that died is an error, not
/// a SIGPIPE.
final class HeadlessChromium {
    static let path = "/usr/bin/chromium"
    let pid: pid_t
    /// Commands go out on one socket pair, answers and events come back on the other.
    private let channel: Int32
    private let reader: Int32
    private var buffer: [UInt8] = []
    private var lastID = 0
    private var sessionID: String?
    private var pendingEvents: [JSONValue] = []

    /// Starts the browser with its profile in `profileDirectory`, its output in `logPath`.
    init(profileDirectory: String, logPath: String) throws {
        var commands: [Int32] = [0, 0], answers: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &commands) == 0,
              socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &answers) == 0
        else { throw TestFailure("socketpair failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, commands[1], 3)
        posix_spawn_file_actions_adddup2(&actions, answers[1], 4)
        var argv = [Self.path, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                    "--disable-dev-shm-usage", "--remote-debugging-pipe", "--user-data-dir=" + profileDirectory]
        // Chromium refuses to run as root inside its sandbox (CI runs as root).
        if getuid() == 0 { argv.append("--no-sandbox") }
        argv.append("about:blank")
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.path, &actions, nil, cArgs, environ)
        close(commands[1])
        close(answers[1])
        guard spawned == 0 else { throw TestFailure("posix_spawn \(Self.path) failed: \(spawned)") }
        self.pid = pid
        channel = commands[0]
        reader = answers[0]
    }

    /// Sends a command (to the page once one is attached) and returns its result.
    @discardableResult
    func call(_ method: String, _ parameters: [(String, JSONValue)] = [], toPage: Bool = true) throws -> JSONValue {
        lastID += 1
        var fields: [(String, JSONValue)] = [("id", .int(lastID)), ("method", .string(method)), ("params", .object(parameters))]
        if toPage, let sessionID { fields.append(("sessionId", .string(sessionID))) }
        let bytes = Array(JSONValue.object(fields).encoded().utf8) + [0]
        let sent = bytes.withUnsafeBytes { send(channel, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw TestFailure("Chromium does not take DevTools commands (errno \(errno))") }
        while true {
            let message = try next()
            guard message["id"]?.doubleValue == Double(lastID) else {
                pendingEvents.append(message)
                continue
            }
            if let error = message["error"] { throw TestFailure("\(method) failed: \(error.encoded())") }
            return message["result"] ?? .null
        }
    }

    /// The next message from the browser (a minute at most).
    private func next() throws -> JSONValue {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                defer { buffer.removeSubrange(...end) }
                return try JSONParser.parse(Array(buffer[..<end]))
            }
            var ready = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0)]
            guard poll(&ready, 1, 60_000) == 1 else { throw TestFailure("Chromium said nothing for a minute") }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(reader, &chunk, chunk.count)
            guard count > 0 else { throw TestFailure("Chromium closed its DevTools pipe") }
            buffer += chunk[0..<count]
        }
    }

    /// Waits for the event `method` (from the attached page).
    private func waitFor(event method: String) throws {
        if let index = pendingEvents.firstIndex(where: { $0["method"] == .string(method) }) {
            pendingEvents.remove(at: index)
            return
        }
        while try next()["method"] != .string(method) {}
    }

    /// Opens `url` in a new page, attaches to it and waits for its load event.
    func open(_ url: String) throws {
        let target = try call("Target.createTarget", [("url", .string("about:blank"))], toPage: false)
        guard let targetID = target["targetId"]?.stringValue else { throw TestFailure("no targetId in \(target.encoded())") }
        let attached = try call("Target.attachToTarget", [("targetId", .string(targetID)), ("flatten", .bool(true))], toPage: false)
        sessionID = attached["sessionId"]?.stringValue
        try call("Page.enable")
        try call("Page.navigate", [("url", .string(url))])
        try waitFor(event: "Page.loadEventFired")
    }

    /// Evaluates `expression` in the page, awaiting it when it is a promise, and returns its value.
    func evaluate(_ expression: String) throws -> JSONValue {
        let result = try call("Runtime.evaluate", [("expression", .string(expression)), ("awaitPromise", .bool(true)), ("returnByValue", .bool(true))])
        if let exception = result["exceptionDetails"] { throw TestFailure("the page threw: \(exception.encoded())") }
        return result["result"]?["value"] ?? .null
    }

    /// Closes the browser and waits for it.
    func stop() {
        _ = try? call("Browser.close", toPage: false)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(channel)
        close(reader)
    }
}
