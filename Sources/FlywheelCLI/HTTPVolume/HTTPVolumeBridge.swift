import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel volumio` and `flywheel moode`: flywheeld's volume control on a player's own HTTP API
/// (``HTTPVolumePlatform``), so the player's web page shows what the knob does. One request at a
/// time (``HTTPExchange``, a connection each): the knob's latest volume goes when the last request
/// is answered, so a fast turn sends the latest value, not a backlog. The player's volume is read
/// when flywheeld's state is known (each daemon connection), after each command (moOde's command
/// answers with it) and after each failure, once the player answers again; it comes back to
/// flywheeld while the knob rests, within flywheeld's cap. Nothing is asked at rest. An
/// unreachable player is retried with ``ReconnectBackoff``, the knob's latest volume kept.
final class HTTPVolumeBridge: SessionPart {
    typealias Request = VolumeRequests.Request

    let platform: HTTPVolumePlatform
    /// `host[:port]`.
    let host: String
    let log: (String) -> Void
    let daemon: DaemonLink
    /// What waits for the player: the mute, the knob's volume, a read.
    private(set) var requests: VolumeRequests
    private var exchange: HTTPExchange?
    private var request: Request?
    private var backoff = ReconnectBackoff()
    /// Whether the last request was answered (said when it changes).
    private var reachable = false
    private var muted: Bool?
    /// Requests sent, for the log on exit.
    private(set) var requestCount = 0

    var label: String { "flywheel \(platform.rawValue)" }

    init(platform: HTTPVolumePlatform, flywheel: String, host: String, muteButton: Int?, log: @escaping (String) -> Void) {
        self.platform = platform
        self.host = host
        requests = VolumeRequests(muteButton: muteButton)
        self.log = log
        daemon = DaemonLink(
            path: flywheel, name: "flywheel \(platform.rawValue)",
            request: [#"{"cmd":"watch","classes":["volume","button"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in requests.daemon($0) }
        daemon.onConnected = { [unowned self] _ in
            requests.sync.daemonConnected()
            log("\(label): connected to flywheeld at \(flywheel).")
        }
    }

    // MARK: The player's side

    /// Starts the next request when none is under way and the player may be tried: the mute, the
    /// knob's latest volume, or a read.
    func pump() {
        let now = MonotonicClock.now()
        guard exchange == nil, backoff.mayTry(at: now), let next = requests.next(daemonConnected: daemon.isConnected) else { return }
        let target: String
        switch next {
        case .read: target = platform.readTarget
        case .set(let volume): target = platform.setTarget(volume)
        case .mute: target = platform.muteTarget(muted: muted ?? false)
        }
        request = next
        requestCount += 1
        do {
            exchange = try HTTPExchange(get: target, from: host, at: now)
        } catch {
            failed(next, error.description)
        }
    }

    /// The request failed: the player is tried again with backoff, the volume kept and read again.
    func failed(_ request: Request, _ reason: String) {
        exchange = nil
        self.request = nil
        requests.failed(request)
        reachable = false
        log("\(label): \(platform.name) at \(host): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
    }

    func finished(_ result: Result<HTTPResponse, HTTPExchange.Failure>) {
        guard let request else { return }
        let response: HTTPResponse
        switch result {
        case .failure(let failure): return failed(request, failure.description)
        case .success(let answer): response = answer
        }
        guard response.status == 200, let answer = platform.answer(response.body) else {
            let what = response.status == 200 ? "an answer its API does not give" : "status \(response.status)"
            return failed(request, "it answered \(what) to GET \(request == .read ? platform.readTarget : "a command"); is it \(platform.name)?")
        }
        exchange = nil
        self.request = nil
        backoff.succeeded()
        if !reachable {
            reachable = true
            log("\(label): connected to \(platform.name) at \(host).")
        }
        switch answer {
        case .volume(let volume, let mutedNow):
            if let mutedNow { muted = mutedNow }
            requests.needsRead = false  // the answer carries the volume (moOde's commands answer with it)
            if case .set(let sent) = request { requests.sync.playerSet(sent) }
            report(volume)
        case .accepted:
            if case .set(let sent) = request { requests.sync.playerSet(sent) }
            requests.needsRead = true  // Volumio: the state read after each command
        case .refused(let reason):
            log("\(label): \(platform.name) refused \(request == .mute ? "the mute" : "the volume"): \(reason)")
        }
    }

    /// The player's volume: back to flywheeld unless the knob has moved on.
    func report(_ volume: Int) {
        switch requests.reported(volume) {
        case .toDaemon(let command): daemon.send(command)
        case .aboveCap:
            log("\(label): \(platform.name)'s volume \(volume) is above flywheeld's volume cap \(requests.sync.cap); bringing \(platform.name) down to \(requests.sync.cap).")
        case .none: break
        }
    }

    // MARK: The loop

    var pollRequest: pollfd? { exchange?.pollRequest }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        guard let exchange, exchange.connection.fd == fd, let result = exchange.ready(revents: revents) else { return }
        finished(result)
    }

    var deadline: Nanoseconds? {
        if let exchange { return exchange.deadline }
        return requests.waiting && !backoff.mayTry(at: MonotonicClock.now()) ? backoff.nextAttemptNanoseconds : nil
    }

    func due(at now: Nanoseconds) {
        if let exchange, let result = exchange.expire(at: now) { finished(result) }
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon, self]
        loop.beforePoll = { [unowned self] in pump() }
        daemon.due(at: MonotonicClock.now())
        try loop.run()
        log("\(label): stopping; \(requestCount) requests sent.")
    }
}
