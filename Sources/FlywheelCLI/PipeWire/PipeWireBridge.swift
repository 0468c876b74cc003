import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel pipewire`: flywheeld's volume control on PipeWire's default sink, through
/// WirePlumber's `wpctl` as a child (no library): `wpctl set-volume @DEFAULT_AUDIO_SINK@ N/100`,
/// one at a time, the latest volume winning; a button's tap `wpctl set-mute … toggle`. A volume
/// set from elsewhere (the desktop's slider, another `wpctl`) comes back: `pw-mon` runs as a
/// monitor child, and once it reports a node, a device or metadata added or changed, the bridge
/// waits 50 ms for the burst to end and reads `wpctl get-volume` — nothing runs while PipeWire is quiet. When PipeWire goes away
/// pw-mon ends; it is started again with ``ReconnectBackoff``, and its first dump reads the volume.
final class PipeWireBridge: SessionPart {
    /// How long after the monitor's last output the volume is read (50 ms).
    static let settleNanoseconds: Nanoseconds = 50_000_000
    /// How long one `wpctl` may run (5 s).
    static let commandNanoseconds: Nanoseconds = 5_000_000_000

    typealias Request = VolumeRequests.Request

    let wpctl: String
    let monitorPath: String
    let log: (String) -> Void
    let daemon: DaemonLink
    let monitor = ChildWatch()
    let command = ChildWatch()
    /// What waits for PipeWire: the mute, the knob's volume, a read.
    private(set) var requests: VolumeRequests
    private var monitorBackoff = ReconnectBackoff()
    private var commandBackoff = ReconnectBackoff()
    private var request: Request?
    private var commandOutput: [UInt8] = []
    private var commandDeadline: Nanoseconds = 0
    private var readAt: Nanoseconds?
    /// pw-mon's output in lines (at most 4 KiB each: a longer one is dropped).
    private var monitorLines = LineReader(maximumLineBytes: 4096)
    private var saidUnreachable = false
    /// wpctl runs, for the log on exit.
    private(set) var commandCount = 0

    init(flywheel: String, wpctl: String, monitor: String, muteButton: Int?, log: @escaping (String) -> Void) {
        self.wpctl = wpctl
        monitorPath = monitor
        requests = VolumeRequests(muteButton: muteButton)
        self.log = log
        daemon = DaemonLink(
            path: flywheel, name: "flywheel pipewire",
            request: [#"{"cmd":"watch","classes":["volume","button"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in requests.daemon($0) }
        daemon.onConnected = { [unowned self] _ in
            requests.sync.daemonConnected()
            log("flywheel pipewire: connected to flywheeld at \(flywheel).")
        }
        self.monitor.onOutput = { [unowned self] bytes in
            monitorLines.append(bytes)
            while let line = monitorLines.next() {
                if case .line(let text) = line, Self.concernsVolume(text), readAt == nil {
                    readAt = MonotonicClock.now() + Self.settleNanoseconds
                }
            }
        }
        self.monitor.onEnd = { [unowned self] status in
            log("flywheel pipewire: \(monitorPath) ended (status \(status)): is PipeWire running for this user (XDG_RUNTIME_DIR)?; retrying in \(monitorBackoff.failed(at: MonotonicClock.now()).dropFirst("retrying in ".count))")
        }
        command.onOutput = { [unowned self] bytes in
            commandOutput.append(contentsOf: bytes.prefix(max(0, 4096 - commandOutput.count)))
        }
        command.onEnd = { [unowned self] status in finished(status) }
    }

    /// Whether a line of pw-mon's names an object a volume lives on: a node (a sink's volume), a
    /// device (a card's route volume) or metadata (the default sink). Clients, ports and links
    /// come and go with every wpctl run, which would otherwise read the volume again and again.
    static func concernsVolume(_ line: [UInt8]) -> Bool {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        guard text.hasPrefix("\ttype: PipeWire:Interface:") else { return false }
        let kind = text.dropFirst("\ttype: PipeWire:Interface:".count)
        return kind.hasPrefix("Node") || kind.hasPrefix("Device") || kind.hasPrefix("Metadata")
    }

    func startMonitor(at now: Nanoseconds) {
        guard !monitor.isRunning, monitorBackoff.mayTry(at: now) else { return }
        do {
            monitor.start(try ChildOutput(monitorPath, []))
            monitorLines = LineReader(maximumLineBytes: 4096)
            monitorBackoff.connected(at: now)
        } catch {
            log("flywheel pipewire: \(ReconnectBackoff.clause(error.description)); \(monitorBackoff.failed(at: now))")
        }
    }

    /// Runs the next wpctl when none runs: the mute, the knob's latest volume, or a read.
    func pump() {
        let now = MonotonicClock.now()
        startMonitor(at: now)
        guard !command.isRunning, commandBackoff.mayTry(at: now) else { return }
        if let at = readAt, now >= at {
            readAt = nil
            requests.needsRead = true
        }
        guard let next = requests.next(daemonConnected: daemon.isConnected) else { return }
        let arguments: [String]
        switch next {
        case .read: arguments = ["get-volume", "@DEFAULT_AUDIO_SINK@"]
        case .set(let volume): arguments = ["set-volume", "@DEFAULT_AUDIO_SINK@", WpctlVolume.argument(volume)]
        case .mute: arguments = ["set-mute", "@DEFAULT_AUDIO_SINK@", "toggle"]
        }
        request = next
        commandOutput = []
        commandDeadline = now + Self.commandNanoseconds
        commandCount += 1
        do {
            command.start(try ChildOutput(wpctl, arguments))
        } catch {
            failed(next, error.description)
        }
    }

    func failed(_ request: Request, _ reason: String) {
        self.request = nil
        requests.failed(request)
        saidUnreachable = true
        log("flywheel pipewire: \(ReconnectBackoff.clause(reason)); \(commandBackoff.failed(at: MonotonicClock.now()))")
    }

    /// The wpctl under way exited with `status`.
    func finished(_ status: Int32) {
        guard let request else { return }
        let text = String(decoding: commandOutput, as: UTF8.self)
        guard status == 0 else {
            let said = text.split(separator: "\n").first.map { ": \($0.prefix(200))" } ?? ""
            return failed(request, "wpctl exited with status \(status)\(said)")
        }
        self.request = nil
        commandBackoff.succeeded()
        if saidUnreachable {
            saidUnreachable = false
            log("flywheel pipewire: wpctl reaches PipeWire again.")
        }
        switch request {
        case .set(let volume): requests.sync.playerSet(volume)
        case .mute: requests.needsRead = true
        case .read:
            guard let (volume, _) = WpctlVolume.parse(text) else {
                return log("flywheel pipewire: wpctl get-volume answered '\(text.prefix(80))', not a volume.")
            }
            switch requests.reported(volume) {
            case .toDaemon(let command): daemon.send(command)
            case .aboveCap:
                log("flywheel pipewire: the default sink's volume \(volume) is above flywheeld's volume cap \(requests.sync.cap); bringing it down to \(requests.sync.cap).")
            case .none: break
            }
        }
    }

    // MARK: The loop

    var pollRequest: pollfd? { nil }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {}

    var deadline: Nanoseconds? {
        let now = MonotonicClock.now()
        var times: [Nanoseconds] = []
        if command.isRunning { times.append(commandDeadline) }
        if let readAt { times.append(readAt) }
        if !monitor.isRunning { times.append(monitorBackoff.nextAttemptNanoseconds) }
        if !command.isRunning, requests.waiting, !commandBackoff.mayTry(at: now) { times.append(commandBackoff.nextAttemptNanoseconds) }
        return times.min()
    }

    func due(at now: Nanoseconds) {
        if command.isRunning, now >= commandDeadline, let request {
            command.cancel()
            failed(request, "wpctl did not finish within 5 s")
        }
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon, monitor, command, self]
        loop.beforePoll = { [unowned self] in pump() }
        daemon.due(at: MonotonicClock.now())
        try loop.run()
        monitor.cancel()
        command.cancel()
        log("flywheel pipewire: stopping; wpctl run \(commandCount) times.")
    }
}
