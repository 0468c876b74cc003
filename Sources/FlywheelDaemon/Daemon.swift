import FlywheelCore
import FlywheelIO

/// flywheeld: the pipeline driven by the event loop. Devices (or a played timeline) feed the
/// pipeline; its messages go to the socket's clients; one timer is armed for the earliest
/// deadline of anything (a control, a frame, the next timeline item, a device retry, the beat
/// light, systemd's watchdog), and nothing is armed at rest.
@MainActor
public final class Daemon {
    let options: DaemonOptions
    let configurationFile: ConfigurationFile
    var configuration: FlywheelConfiguration
    /// The configuration flywheeld started with: its devices and socket are the ones in use until a
    /// restart, whatever reloads came since.
    let startingConfiguration: FlywheelConfiguration
    let loop: EventLoop
    /// Where every time the daemon takes comes from (its loop's clock: CLOCK_MONOTONIC, or a test's
    /// virtual clock).
    let clock: TimeSource
    let server: SocketServer
    let signals: SignalSource
    /// The controls, and the one sink of their messages (its outbox, emptied after each turn:
    /// a turn allocates nothing for its messages).
    let pipeline: Pipeline
    let timeline: InputTimeline?
    /// The timeline's items as a playback plays them, made once at start (not when clients come).
    let timelineItems: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)]
    var timelineDevice: InputDevice?
    var manager: DeviceManager?
    /// The metronome beat for devices with a light (configured `led: "beat"`).
    var nextBeat: Nanoseconds?
    let watchdogInterval: Nanoseconds?
    var nextWatchdog: Nanoseconds?
    /// systemd passed the listening socket (socket activation): the configured path is not made.
    let socketPassed: Bool
    /// The sentence said once at start (unless `--quiet`): where it listens and what it serves.
    let banner: DaemonBanner
    /// Where the daemon's sentences go (standard error, each line begun with `flywheeld: `; a
    /// test's own list in process).
    let log: (String) -> Void
    /// The state file, when there is one: restored at start, written after changes.
    let stateKeeper: StateKeeper?
    /// Whether the end of a played timeline (`--simulate`/`--replay` without `--loop`) was said.
    var saidPlaybackEnd = false

    /// Sets the daemon up: configuration, input, socket, devices, its time read from `clock`.
    /// Nothing runs until ``run()``.
    public convenience init(options: DaemonOptions, clock: TimeSource = .monotonic) throws(ToolError) {
        try self.init(options: options, clock: clock, log: Self.say)
    }

    /// ``init(options:clock:)`` with its sentences said to `log`.
    init(options: DaemonOptions, clock: TimeSource, log: @escaping (String) -> Void) throws(ToolError) {
        self.clock = clock
        self.log = log
        self.configurationFile = ConfigurationFile(path: options.configPath)
        configuration = try Self.load(configurationFile)
        startingConfiguration = configuration
        for notice in ConfigurationWarnings.notices(in: configuration) { log("warning: \(notice)") }
        let passedListener = UnixListener.fromSystemd()
        socketPassed = passedListener != nil
        try Self.check(configuration, options: options, socketPassed: socketPassed)
        if socketPassed {
            for sentence in Self.unusedUnderActivation(configuration, options: options) { log(sentence) }
        }
        // A bundled scenario by name (`demo`, `flick`): `options.simulate` keeps the name as given.
        var playedPath = options.replay
        if let simulate = options.simulate {
            let path = try BundledScenarios(hardware: options.hardware).path(for: simulate)
            playedPath = path
            timeline = try InputTimeline.load(path, hardware: options.hardware)
        } else if let replay = options.replay {
            timeline = try InputTimeline.load(replay, hardware: options.hardware, channels: options.channels)
        } else {
            timeline = nil
        }
        self.options = options
        timelineItems = timeline?.items.map { ($0.timeNanoseconds, $0.item) } ?? []

        CurrentProcess.ignoreBrokenPipes()
        do {
            signals = try SignalSource([.hangup, .interrupt, .terminate])
            loop = try EventLoop(clock: clock)
        } catch {
            throw ToolError(error)
        }
        let listener: UnixListener
        let socketPath = options.socketPath ?? configuration.socketPath ?? Self.defaultSocketPath()
        // The state file is never one of the daemon's other files (its first write would replace it).
        if let statePath = options.stateFile {
            for (other, what) in [(configurationFile.path, "the configuration file"), (socketPath, "the socket"), (socketPath + ".lock", "the socket's lock")]
            where statePath == other || StateFile.isSameFile(statePath, as: other) {
                throw .usage("--state \(statePath) is \(what); give the state a file of its own, such as /var/lib/flywheel/state")
            }
        }
        do {
            listener = try passedListener
                ?? UnixListener.bind(
                    path: RuntimeDirectory.prepared(forSocket: socketPath),
                    mode: .init(configuration.socketMode), group: configuration.socketGroup)
            server = try SocketServer(loop: loop, listener: listener, queueLimit: configuration.queueMessages)
        } catch {
            throw ToolError(error)
        }
        server.clientLimit = options.commandLineSettings.clientLimit(under: configuration)

        let scrubDuration = options.scrubDurationSeconds ?? DaemonOptions.defaultScrubDuration(playing: options.simulate)
        pipeline = Pipeline(core: Self.core(configuration, options: options, scrubDurationSeconds: scrubDuration))
        // The saved state, before READY: then the configuration's bounds apply to it.
        stateKeeper = options.stateFile.map { StateKeeper(path: $0, log: log) }
        if let stateKeeper, let saved = stateKeeper.load(quiet: options.quiet) {
            let notes = pipeline.core.restore(saved, configured: configuration.tempoDial, restoreMaxVolume: configuration.volumeRestoreMax)
            for note in notes { log("warning: \(stateKeeper.path): \(note).") }
            if !options.quiet {
                let state = pipeline.core.currentState
                log("restored from \(stateKeeper.path): the tempo \(state.tempoBPM) BPM, the volume \(state.volume), the mode \(state.mode.rawValue).")
            }
        }
        stateKeeper?.started(with: pipeline.savedState(configured: configuration.tempoDial))
        let configuration = self.configuration
        timelineDevice = timeline.map { $0.device(path: playedPath ?? "", configuration: configuration) }
        banner = DaemonBanner(
            socket: socketPassed ? nil : socketPath, input: DaemonBanner.Input(options: options, playedPath: playedPath, devices: configuration.devices),
            scrubDurationSeconds: scrubDuration)

        if timeline == nil, !options.noDevices {
            let backends = DeviceBackends(hardware: options.hardware, entries: configuration.devices, gpioDirectory: options.gpioDirectory)
            do {
                manager = try DeviceManager(
                    loop: loop, wants: backends.wants, discover: backends.wants.isEmpty, inputDirectory: options.inputDirectory,
                    gpioDirectory: options.gpioDirectory, opener: backends.opener, clock: clock.now)
            } catch {
                throw ToolError(error)
            }
        }
        nextBeat = configuration.devices.contains { $0.light == .beat } ? clock.now() : nil
        watchdogInterval = Self.watchdogInterval()
        nextWatchdog = watchdogInterval.map { clock.now() + $0 }
        try wire()
    }

    /// Reads the configuration file (a regular file, bounded; the defaults when the default path is absent).
    static func load(_ file: ConfigurationFile) throws(ToolError) -> FlywheelConfiguration {
        do { return try file.load() } catch { throw ToolError(error) }
    }

    /// The controls as the configuration and the command line set them up.
    static func core(_ configuration: FlywheelConfiguration, options: DaemonOptions, scrubDurationSeconds: Double) -> DaemonCore {
        var core = DaemonCore(configuration: configuration, scrubDurationSeconds: scrubDurationSeconds)
        if let frames = options.framesPerSecond { core.framesPerSecond = frames }
        return core
    }

    /// The socket path when neither the command line nor the configuration names one.
    static func defaultSocketPath() -> String { SocketLocation.daemonDefault() }

    /// systemd's watchdog, when it asks for one: WATCHDOG=1 every half interval.
    static func watchdogInterval() -> Nanoseconds? {
        guard let usec = Environment.value("WATCHDOG_USEC").flatMap(Int64.init), usec > 0 else { return nil }
        if let pid = Environment.value("WATCHDOG_PID").flatMap(Int32.init), pid != CurrentProcess.processID { return nil }
        return usec * 1000 / 2
    }

    /// The devices as `hello` lists them.
    var devices: [InputDevice] {
        // A played timeline's device is gone once the timeline is over (`--simulate` without `--loop`).
        let played = pipeline.playbackIsOver ? nil : timelineDevice
        return (played.map { [$0] } ?? []) + (manager?.openDevices ?? [])
    }

    func wire() throws(ToolError) {
        if let manager {
            manager.onInput = { [unowned self] device, inputs in
                self.pipeline.input(inputs, from: device)
                self.deliver()
                self.schedule()
            }
            manager.onChange = { [unowned self] change, device, time in
                self.pipeline.deviceChanged(change, device, at: time)
                self.deliver()
                self.schedule()
            }
            manager.onProblem = { [unowned self] sentence in self.log(sentence) }
        }
        server.hello = { [unowned self] time in self.pipeline.core.hello(version: FlywheelVersion.string, devices: self.devices, at: time) }
        server.onCommand = { [unowned self] command, time in
            let answer = self.pipeline.core.handle(command, at: time)
            defer { self.schedule() }
            return answer
        }
        server.onSubscriptionsChanged = { [unowned self] in
            self.pipeline.wantsFrames = self.server.anyoneWantsFrames
            if self.pipeline.playback == nil, self.timeline != nil, self.server.clientCount >= self.options.holdUntilClients { self.startPlayback() }
            self.schedule()
        }
        do {
            try loop.register(signals.fd, interest: .readable) { [unowned self] _ in self.handleSignals() }
        } catch {
            throw ToolError(error)
        }
    }

    func startPlayback() {
        guard let timeline, let device = timelineDevice else { return }
        let playback = Playback(
            items: timelineItems,
            endNanoseconds: options.loop ? timeline.loopPeriodNanoseconds : timeline.endNanoseconds, device: device,
            loops: options.loop, start: clock.now())
        pipeline.play(playback)
        deliver()
    }

    /// Arms the timer for the earliest deadline of anything.
    func schedule() { schedule(pipelineDeadline: pipeline.nextDeadline) }

    /// ``schedule()`` with the pipeline's next deadline known (an advance just worked it out).
    func schedule(pipelineDeadline: Nanoseconds?) {
        // Without building an array.
        var earliest = Pipeline.earliest(pipelineDeadline, nextWatchdog)
        if let stateKeeper {
            stateKeeper.note(pipeline.savedState(configured: configuration.tempoDial), now: clock.now)
            earliest = Pipeline.earliest(earliest, stateKeeper.dueNanoseconds)
        }
        if let manager {
            earliest = Pipeline.earliest(earliest, manager.nextDeadline)
            if let nextBeat, !manager.openDevices.isEmpty { earliest = Pipeline.earliest(earliest, nextBeat) }
        }
        loop.arm(at: earliest)
    }

    func wake() {
        let now = clock.now()
        manager?.wake(at: now)
        if let beat = nextBeat, now >= beat {
            manager?.beat(at: now)
            let period = Nanoseconds(60e9 / max(1, pipeline.core.tempo.bpm.value))
            nextBeat = beat + period * max(1, (now - beat) / period + 1)
        }
        let pipelineDeadline = pipeline.advance(to: now)
        let wantedFrames = pipeline.wantsFrames
        deliver()
        if timeline != nil, !saidPlaybackEnd, pipeline.playbackIsOver {
            // Its device was removed with it (clients got `removed`): what its buttons held ended.
            saidPlaybackEnd = true
            if !options.quiet { log("\(banner.playedName) ended: its device is removed; flywheeld serves on.") }
        }
        // After the turn's messages are out: the write's syncs delay nothing of this turn.
        stateKeeper?.writeIfDue(pipeline.savedState(configured: configuration.tempoDial), at: now)
        if let due = nextWatchdog, let interval = watchdogInterval, now >= due {
            _ = SystemdNotify.send("WATCHDOG=1")
            nextWatchdog = now + interval
        }
        // The advance's deadline holds unless the sending dropped the last client that wanted frames.
        schedule(pipelineDeadline: pipeline.wantsFrames == wantedFrames ? pipelineDeadline : pipeline.nextDeadline)
    }

    /// Broadcasts the pipeline's outbox and empties it, keeping its room.
    func deliver() {
        server.broadcast(pipeline.outbox)
        pipeline.outbox.removeAll()
    }

    func handleSignals() {
        for signal in signals.drain() {
            switch ProcessSignal(rawValue: signal) {
            case .hangup: reload()
            default: loop.stop()
            }
        }
    }

    /// SIGHUP: reload without dropping clients; a bad file keeps the running configuration.
    func reload() {
        do {
            let reloaded = try Self.load(configurationFile)
            try Self.check(reloaded, options: options, socketPassed: socketPassed)
            let previousDial = configuration.tempoDial
            let waiting = Self.waitingForRestart(running: startingConfiguration, reloaded: reloaded)
            configuration = reloaded
            for notice in ConfigurationWarnings.notices(in: reloaded) { log("warning: \(notice)") }
            // A gesture under way ends (committed, cancelled or settled) before the new settings apply.
            let now = max(clock.now(), pipeline.time)
            pipeline.advance(to: now)
            deliver()
            let (next, ended) = pipeline.core.reloaded(with: reloaded, at: now, previousDial: previousDial)
            pipeline.core = next
            server.broadcast(ended)
            pipeline.core.framesPerSecond = options.commandLineSettings.framesPerSecond(under: reloaded)
            server.queueLimit = reloaded.queueMessages
            server.clientLimit = options.commandLineSettings.clientLimit(under: reloaded)
            log("reloaded \(configurationFile.path)" + (waiting.isEmpty ? "." : "; not applied until flywheeld restarts: \(waiting.joined(separator: " and ")) (sudo systemctl restart flywheeld)."))
        } catch {
            for line in error.description.split(separator: "\n") { log("kept the running configuration: \(line)") }
        }
        server.broadcast([pipeline.core.state(at: clock.now())])
        schedule()
    }

    /// What a reload to `reloaded` leaves for a restart, as phrases: the devices (which entries
    /// differ from those `running`, the configuration at start, made) and the socket's settings.
    static func waitingForRestart(running: FlywheelConfiguration, reloaded: FlywheelConfiguration) -> [String] {
        var waiting: [String] = []
        if running.devices != reloaded.devices {
            let changed = (0..<max(running.devices.count, reloaded.devices.count)).filter {
                $0 >= running.devices.count || $0 >= reloaded.devices.count || running.devices[$0] != reloaded.devices[$0]
            }
            waiting.append("the devices (\(changed.map { "devices[\($0)]" }.joined(separator: ", ")) changed)")
        }
        if (running.socketPath, running.socketGroup, running.socketMode) != (reloaded.socketPath, reloaded.socketGroup, reloaded.socketMode) {
            waiting.append("the socket's settings")
        }
        return waiting
    }

    /// Serves until SIGTERM or SIGINT; then says STOPPING, closes the devices and the socket.
    public func run() throws(ToolError) {
        try start()
        defer { finish() }
        // The timer's handler lives in this frame, which holds the daemon while the loop runs.
        do { try loop.run { self.wake() } } catch { throw ToolError(error) }
    }

    /// What serving begins with: the playback (unless it waits for clients), the devices, the
    /// timer, the banner and READY=1.
    func start() throws(ToolError) {
        HotPathTypes.prepare()
        if timeline != nil, options.holdUntilClients == 0 { startPlayback() }
        do { try manager?.start() } catch { throw ToolError(error) }
        schedule()
        if !options.quiet { log(banner.sentence) }
        _ = SystemdNotify.send("READY=1")
    }

    /// One turn of the loop, waiting at most `waitingMilliseconds` for something to be ready, the
    /// timer's deadline due when the clock has passed it (a test's virtual clock): serving stepped
    /// by a test, in its own process.
    func turn(waitingMilliseconds: Int32 = 0) throws(ToolError) {
        do { try loop.runOnce(timeoutMilliseconds: waitingMilliseconds) { self.wake() } } catch { throw ToolError(error) }
    }

    /// What serving ends with: STOPPING=1, the devices and the socket closed.
    func finish() {
        _ = SystemdNotify.send("STOPPING=1")
        stateKeeper?.flush(pipeline.savedState(configured: configuration.tempoDial), at: clock.now())
        manager?.shutdown()
        server.shutdown()
    }

    nonisolated static func say(_ sentence: String) {
        try? FileOutput.standardError.write("flywheeld: \(sentence)\n")
    }

    /// flywheeld's whole life: parse the arguments, check or serve; returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        do throws(ToolError) {
            switch try DaemonOptions.parse(arguments) {
            case .print(let text):
                try? FileOutput.standardOutput.write(text)
                return 0
            case .serve(let options):
                if options.checkConfig {
                    let profiles = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: options.hardware, scenarioPath: nil))
                    let report = ConfigurationCheck.report(
                        for: ConfigurationFile(path: options.configPath), profiles: profiles, commandLineSocket: options.socketPath,
                        defaultSocketPath: defaultSocketPath())
                    if report.valid {
                        // Warnings once the file is otherwise right: its errors come first, as starting says them.
                        for warning in report.warnings { say("warning: " + warning) }
                        try? FileOutput.standardOutput.write(report.text)
                    } else {
                        for line in report.text.split(separator: "\n") { say(String(line)) }
                    }
                    return report.valid ? 0 : 1
                }
                let daemon = try Daemon(options: options)
                try daemon.run()
                return 0
            }
        } catch {
            for line in error.sentence(help: "flywheeld --help").split(separator: "\n") { say(String(line)) }
            return error.status
        }
    }
}
