import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel mqtt`: flywheeld's controls on an MQTT 3.1.1 broker, on the bridges' ``SessionLoop``.
/// The state is published retained under the prefix — `tempo` (BPM), `volume`, `mode`,
/// `scrub/position` — at most every 50 ms (the latest of a turn's values), and `status` says
/// `online`, or `offline` (the will, and on SIGTERM); `tempo/set`, `volume/set` and `mode/set`
/// set the controls. Home Assistant finds them by discovery: a `number` for the tempo and the
/// volume, a `select` for the mode, under `homeassistant/…/config`. Both sides reconnect with
/// backoff, saying so; the broker is pinged within the keep-alive and dropped if it stays silent.
final class MQTTBridge: SessionPart {
    struct Options {
        var broker: String
        var prefix = "flywheel"
        var discoveryPrefix: String? = "homeassistant"
        var clientID = "flywheel"
        var username: String?
        var password: String?
        var keepAliveSeconds: UInt16 = 30
    }

    /// How long a turn's values are gathered before they are published (50 ms).
    static let coalesceNanoseconds: Nanoseconds = 50_000_000
    /// How long the broker may take to accept the connection (10 s).
    static let connackNanoseconds: Nanoseconds = 10_000_000_000

    let options: Options
    let log: (String) -> Void
    let daemon: DaemonLink
    private var broker: StreamConnection?
    private var reader = MQTTReader()
    private var accepted = false
    private var connectedAt: Nanoseconds = 0
    private var lastSent: Nanoseconds = 0
    private var lastReceived: Nanoseconds = 0
    private var pingSentAt: Nanoseconds?
    private var backoff = ReconnectBackoff()
    private var nextPacketID: UInt16 = 1
    /// The latest value of each state topic, and which of them the broker has not been sent.
    private var values: [String: String] = [:]
    private var unsent: Set<String> = []
    private var flushAt: Nanoseconds?
    /// The daemon's state: the ranges discovery announces.
    private var tempoRange: (Int, Int)?
    private var volumeCap = 100
    private var modes: [String] = []
    private var announced = false
    /// Messages published, for the log on exit.
    private(set) var published = 0

    init(flywheel: String, options: Options, log: @escaping (String) -> Void) {
        self.options = options
        self.log = log
        daemon = DaemonLink(
            path: flywheel, name: "flywheel mqtt",
            request: [#"{"cmd":"watch","classes":["tempo","volume","mode","scrub"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in handleDaemon($0) }
        daemon.onConnected = { _ in log("flywheel mqtt: connected to flywheeld at \(flywheel).") }
    }

    var statusTopic: String { options.prefix + "/status" }

    // MARK: flywheeld's side

    func handleDaemon(_ line: [UInt8]) {
        guard let message = try? JSONParser.parse(line) else { return }
        switch message["class"]?.stringValue {
        case "state":
            if let bpm = message["tempo"]?["bpm"] { update("tempo", bpm.encoded()) }
            if case .array(let range)? = message["tempo"]?["range"], range.count == 2,
                let low = range[0].doubleValue, let high = range[1].doubleValue
            {
                tempoRange = (Int(low), Int(high))
            }
            if let volume = message["volume"]?["volume"] { update("volume", volume.encoded()) }
            if let cap = message["volume"]?["cap"]?.doubleValue { volumeCap = Int(cap) }
            if let mode = message["mode"]?["active"]?.stringValue { update("mode", mode) }
            if case .array(let segments)? = message["mode"]?["segments"] { modes = segments.compactMap(\.stringValue) }
            if let position = message["scrub"]?["position"] { update("scrub/position", position.encoded()) }
            if !announced { announce() }
        case "tempo": if let bpm = message["bpm"] { update("tempo", bpm.encoded()) }
        case "volume": if let volume = message["volume"] { update("volume", volume.encoded()) }
        case "mode": if let mode = message["mode"]?.stringValue { update("mode", mode) }
        case "scrub": if let position = message["position"] { update("scrub/position", position.encoded()) }
        case "error": log("flywheel mqtt: flywheeld refused a command from MQTT: \(message["message"]?.stringValue ?? "")")
        default: break
        }
    }

    /// A state topic's new value: published with the turn's others once ``coalesceNanoseconds`` pass.
    func update(_ topic: String, _ value: String) {
        guard values[topic] != value else { return }
        values[topic] = value
        unsent.insert(topic)
        if flushAt == nil { flushAt = MonotonicClock.now() + Self.coalesceNanoseconds }
    }

    // MARK: The broker's side

    func connect(at now: Nanoseconds) {
        guard broker == nil, backoff.mayTry(at: now) else { return }
        do {
            let connection = try StreamConnection(connectingTo: options.broker, defaultPort: "1883", maximumQueuedBytes: 256 * 1024)
            broker = connection
            reader = MQTTReader()
            accepted = false
            connectedAt = now
            lastReceived = now
            pingSentAt = nil
            backoff.connected(at: now)
            send(.connect(
                clientID: options.clientID, keepAliveSeconds: options.keepAliveSeconds, will: (statusTopic, Array("offline".utf8)),
                username: options.username, password: options.password))
        } catch {
            log("flywheel mqtt: the broker at \(options.broker): \(ReconnectBackoff.clause(error.description)); \(backoff.failed(at: now))")
        }
    }

    func drop(_ reason: String) {
        guard broker != nil else { return }
        broker = nil
        accepted = false
        log("flywheel mqtt: the broker at \(options.broker): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
    }

    func send(_ packet: MQTTPacket) {
        guard let broker else { return }
        do {
            try broker.send(raw: packet.encoded())
            lastSent = MonotonicClock.now()
        } catch { drop(error.description) }
    }

    func packetID() -> UInt16 {
        defer { nextPacketID = nextPacketID == UInt16.max ? 1 : nextPacketID + 1 }
        return nextPacketID
    }

    func publish(_ topic: String, _ payload: String, qos: UInt8 = 0, retain: Bool = true) {
        send(.publish(topic: topic, payload: Array(payload.utf8), qos: qos, retain: retain, packetID: qos > 0 ? packetID() : nil, duplicate: false))
        published += 1
    }

    /// The broker accepted the connection: the commands subscribed, `online`, discovery and every value.
    func ready() {
        accepted = true
        log("flywheel mqtt: connected to the broker at \(options.broker), publishing under \(options.prefix)/.")
        send(.subscribe(packetID: packetID(), topics: ["tempo/set", "volume/set", "mode/set"].map { (options.prefix + "/" + $0, 1) }))
        publish(statusTopic, "online", qos: 1)
        announced = false
        if tempoRange != nil { announce() }
        unsent = Set(values.keys)
        flush()
    }

    /// Home Assistant's discovery: the tempo and the volume as `number`s, the mode as a `select`.
    func announce() {
        guard accepted, let discovery = options.discoveryPrefix, let (low, high) = tempoRange else { return }
        announced = true
        let id = options.prefix.map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce("") { $0 + String($1) }
        let device: JSONValue = .object([
            ("identifiers", .array([.string(id)])), ("name", .string("Flywheel")), ("manufacturer", .string("Flywheel")),
            ("model", .string("flywheeld")), ("sw_version", .string(FlywheelVersion.string)),
        ])
        func entity(_ component: String, _ object: String, _ fields: [(String, JSONValue)]) {
            let config: JSONValue = .object(
                [("name", .string(object.prefix(1).uppercased() + object.dropFirst())), ("unique_id", .string("\(id)_\(object)")),
                 ("state_topic", .string("\(options.prefix)/\(object)")), ("command_topic", .string("\(options.prefix)/\(object)/set")),
                 ("availability_topic", .string(statusTopic)), ("device", device)] + fields)
            publish("\(discovery)/\(component)/\(id)_\(object)/config", config.encoded(), qos: 1)
        }
        entity("number", "tempo", [("min", .int(low)), ("max", .int(high)), ("step", .double(0.1)), ("unit_of_measurement", .string("BPM")), ("mode", .string("box"))])
        entity("number", "volume", [("min", .int(0)), ("max", .int(volumeCap)), ("step", .int(1)), ("unit_of_measurement", .string("%")), ("mode", .string("slider"))])
        if !modes.isEmpty { entity("select", "mode", [("options", .array(modes.map(JSONValue.string)))]) }
    }

    func flush() {
        flushAt = nil
        guard accepted else { return }
        for topic in unsent.sorted() {
            if let value = values[topic] { publish("\(options.prefix)/\(topic)", value) }
        }
        unsent = []
    }

    func handle(_ packet: MQTTPacket) {
        switch packet {
        case .connack(let code):
            guard code == 0 else {
                let reasons: [UInt8: String] = [1: "it does not speak MQTT 3.1.1", 2: "it refused the client id", 3: "it is unavailable",
                                                4: "it refused the user name or password", 5: "the client is not authorised"]
                return drop("the broker refused the connection: \(reasons[code] ?? "code \(code)")")
            }
            ready()
        case .publish(let topic, let payload, let qos, _, let id, _):
            if qos == 1, let id { send(.puback(packetID: id)) }
            command(topic, String(decoding: payload, as: UTF8.self))
        case .pingresp: pingSentAt = nil
        case .puback, .suback, .other, .pingreq, .connect, .subscribe, .disconnect: break
        }
    }

    /// A command from MQTT: `tempo/set` (a BPM), `volume/set`, `mode/set` (a mode's name).
    func command(_ topic: String, _ payload: String) {
        let value = payload.trimmingCharacters()
        let control = topic.dropFirst(options.prefix.count + 1)
        switch control {
        case "tempo/set", "volume/set":
            guard let number = Double(value), number.isFinite else {
                return log("flywheel mqtt: \(topic) takes a number, not '\(value.prefix(48))'; ignored.")
            }
            let name = control == "tempo/set" ? "tempo" : "volume"
            let key = name == "tempo" ? "bpm" : "volume"
            commands[name] = JSONValue.object([("cmd", .string("set")), ("control", .string(name)), (key, .double(number))]).encoded()
        case "mode/set":
            commands["mode"] = JSONValue.object([("cmd", .string("set")), ("control", .string("mode")), ("mode", .string(String(value.prefix(64))))]).encoded()
        default: break
        }
        sendCommands()
    }

    /// The latest command for each control, not yet sent: a flood of `…/set` messages costs the
    /// daemon one command a control at a time, the latest winning, never a queue.
    private var commands: [String: String] = [:]

    /// Sends the waiting commands while the daemon keeps up (less than 4 KiB unread).
    func sendCommands() {
        guard daemon.isConnected, (daemon.connection?.queuedByteCount ?? 0) < 4096 else { return }
        for name in commands.keys.sorted() { daemon.send(commands.removeValue(forKey: name)!) }
    }

    // MARK: The loop

    var pollRequest: pollfd? { broker.map { pollfd(fd: $0.fd, events: $0.pollEvents, revents: 0) } }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard let broker, broker.fd == fd else { return }
        do {
            if broker.isConnecting { try broker.finishConnecting() }
            if revents & Int16(POLLOUT) != 0 { try broker.flush() }
        } catch { return drop(error.description) }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let open = broker.receive(rawMaximumBytes: 256 * 1024) { bytes in reader.append(bytes) }
        lastReceived = now
        do {
            while self.broker === broker, let packet = try reader.next() { handle(packet) }
        } catch {
            return drop("it sent a packet the bridge cannot take (\(error))")
        }
        if !open { drop(broker.lastError?.description ?? "it closed the connection") }
    }

    var deadline: Nanoseconds? {
        guard let broker else { return backoff.nextAttemptNanoseconds }
        _ = broker
        let keepAlive = Nanoseconds(options.keepAliveSeconds) * 1_000_000_000
        var times: [Nanoseconds] = []
        if !accepted { times.append(connectedAt + Self.connackNanoseconds) }
        if accepted { times.append(pingSentAt.map { $0 + keepAlive / 2 } ?? lastSent + keepAlive * 3 / 4) }
        if let flushAt { times.append(flushAt) }
        return times.min()
    }

    func due(at now: Nanoseconds) {
        guard broker != nil else { return connect(at: now) }
        let keepAlive = Nanoseconds(options.keepAliveSeconds) * 1_000_000_000
        if !accepted, now >= connectedAt + Self.connackNanoseconds { return drop("it did not accept the connection within 10 s") }
        if let sent = pingSentAt, now >= sent + keepAlive / 2 { return drop("it did not answer a ping within \(options.keepAliveSeconds / 2) s") }
        if accepted, pingSentAt == nil, now >= lastSent + keepAlive * 3 / 4 {
            send(.pingreq)
            pingSentAt = now
        }
        if let flushAt, now >= flushAt { flush() }
    }

    /// Runs until SIGTERM or SIGINT; says `offline` and disconnects on the way out.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon, self]
        loop.beforePoll = { [unowned self] in sendCommands() }
        daemon.due(at: MonotonicClock.now())
        connect(at: MonotonicClock.now())
        try loop.run()
        if accepted, let broker {
            publish(statusTopic, "offline")
            send(.disconnect)
            // What the broker takes within 50 ms goes; a broker that takes nothing does not hold the exit.
            var entry = pollfd(fd: broker.fd, events: Int16(POLLOUT), revents: 0)
            var fds = [entry]
            let deadline = MonotonicClock.now() + 50_000_000
            while broker.hasQueuedBytes, MonotonicClock.now() < deadline {
                fds = [entry]
                guard (try? Poll.wait(&fds, timeoutNanoseconds: deadline - MonotonicClock.now(), subject: options.broker)) ?? 0 > 0 else { break }
                try? broker.flush()
                entry.revents = 0
            }
        }
        log("flywheel mqtt: stopping; \(published) messages published.")
    }
}

extension String {
    /// Without the spaces, tabs and line ends around it.
    func trimmingCharacters() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
