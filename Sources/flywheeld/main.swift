// flywheeld: serves tempo and scrub events from knobs with physical feel on a Unix socket.
import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import Glibc

let usage = """
    flywheeld — serves tempo and scrub events from knobs, jog wheels and touch panels on a Unix socket.

    Usage: flywheeld [--config PATH] [--check-config] [--socket PATH] [--simulate SCENARIO.sim|demo [--loop]] [--replay FILE]
                     [--hold-until-clients N] [--frames HZ] [--hardware DIR] [--help] [--version]

      --config PATH       the configuration (JSON5; default /etc/flywheel/flywheel.json5, absent = defaults);
                          SIGHUP reloads it without dropping clients
      --check-config      validate the configuration and exit
      --socket PATH       where to listen (default $RUNTIME_DIRECTORY/flywheel.sock, else
                          /run/flywheel/flywheel.sock as root, else $XDG_RUNTIME_DIR/flywheel.sock);
                          systemd socket activation (LISTEN_FDS) is used when present
      --simulate FILE     drive the knob from the firmware simulator in real time ("demo": the built-in demo)
      --loop              start the scenario again when it ends
      --replay FILE       serve a recording (.edges, .vcd with --channels, evemu) in real time
      --hold-until-clients N  start the input once N clients are connected (for tests and demos)
      --frames HZ         continuous frames while in motion for clients that ask (default 60, 0 = none)
      --scrub-duration S  the scrub content's length until a client sets it (default 0; the demo uses 214)
      --max-clients N     clients served at once (default 256); one more is told so and closed
      --input-dir DIR     where evdev nodes appear (default /dev/input); --gpio-dir DIR for GPIO chips (default /dev)
      --no-devices        take no hardware (only --simulate/--replay input)

    Without --simulate or --replay, flywheeld takes the devices the configuration lists (evdev paths
    or GPIO lines), or, when it lists none, every knob it recognises in /dev/input; devices may come
    and go while it runs.

    The protocol is documented in PROTOCOL.md.

    """

@MainActor func fail(_ message: String, status: Int32 = 1) -> Never {
    try? FileOutput.standardError.write("flywheeld: \(message)\n")
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)") else { return nil }
    guard index + 1 < arguments.count else { fail("the option --\(name) needs a value.", status: 2) }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return value
}
@MainActor func flag(_ name: String) -> Bool {
    guard let index = arguments.firstIndex(of: "--\(name)") else { return false }
    arguments.remove(at: index)
    return true
}

if flag("help") || flag("h") {
    try? FileOutput.standardOutput.write(usage)
    exit(0)
}
if flag("version") {
    try? FileOutput.standardOutput.write("flywheeld \(FlywheelVersion.string) (protocol \(DaemonCore.protocolVersion))\n")
    exit(0)
}
let configOption = option("config")
let checkConfig = flag("check-config")
let socketOption = option("socket")
var simulate = option("simulate")
let replay = option("replay")
let hardware = option("hardware")
let channels = option("channels")
let loopInput = flag("loop")
let holdUntil = Int(option("hold-until-clients") ?? "0") ?? -1
let framesText = option("frames")
let scrubDurationText = option("scrub-duration")
let maxClientsText = option("max-clients")
let inputDirectory = option("input-dir") ?? "/dev/input"
let gpioDirectory = option("gpio-dir") ?? "/dev"
let noDevices = flag("no-devices")
if let unknown = arguments.first { fail("unknown option '\(unknown)'; run 'flywheeld --help'.", status: 2) }
guard holdUntil >= 0 else { fail("--hold-until-clients takes a whole number.", status: 2) }
guard let framesPerSecond = Double(framesText ?? "60"), framesPerSecond >= 0, framesPerSecond <= 240 else {
    fail("--frames takes 0 to 240 per second, not '\(framesText ?? "")'.", status: 2)
}
if simulate != nil && replay != nil { fail("choose one of --simulate and --replay.", status: 2) }
let isDemo = simulate == "demo"

// The configuration.
let configPath = configOption ?? "/etc/flywheel/flywheel.json5"
@MainActor func loadConfiguration() throws -> FlywheelConfiguration { try ConfigurationFile(path: configOption).load() }
var configuration: FlywheelConfiguration
do { configuration = try loadConfiguration() } catch { fail("\(error)") }
if checkConfig {
    let report = ConfigurationCheck.report(for: ConfigurationFile(path: configOption), profiles: ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: nil)))
    try? (report.valid ? FileOutput.standardOutput : FileOutput.standardError).write(report.text)
    exit(report.valid ? 0 : 1)
}

// The input timeline.
var timeline: InputTimeline?
do {
    if simulate == "demo" {
        let folders = ProfileLibrary.searchPath(explicit: hardware, scenarioPath: nil)
        guard let found = folders.map({ $0 + "/scenarios/demo.sim" }).first(where: FileSystem.exists) else {
            fail("the demo scenario hardware/scenarios/demo.sim was not found in \(folders.joined(separator: ", ")); give --hardware DIR.")
        }
        simulate = found
    }
    if let simulate { timeline = try InputTimeline.load(simulate, hardware: hardware) }
    if let replay { timeline = try InputTimeline.load(replay, hardware: hardware, channels: channels) }
} catch {
    fail(error.description)
}

// The socket.
@MainActor func defaultSocketPath() -> String {
    if let runtime = Environment.value("RUNTIME_DIRECTORY") { return runtime.split(separator: ":").first.map(String.init)! + "/flywheel.sock" }
    if getuid() == 0 { return "/run/flywheel/flywheel.sock" }
    if let xdg = Environment.value("XDG_RUNTIME_DIR") { return xdg + "/flywheel.sock" }
    return "/tmp/flywheel-\(getuid()).sock"
}

signal(SIGPIPE, SIG_IGN)
let signals: SignalSource
let loop: EventLoop
let server: SocketServer
do {
    signals = try SignalSource([SIGINT, SIGTERM, SIGHUP])
    loop = try EventLoop()
    let listener = try UnixListener.fromSystemd()
        ?? UnixListener.bind(
            path: socketOption ?? configuration.socketPath ?? defaultSocketPath(), mode: mode_t(configuration.socketMode),
            group: configuration.socketGroup)
    server = try SocketServer(loop: loop, listener: listener, queueLimit: configuration.queueMessages)
    server.clientLimit = configuration.maxClients
    if let maxClientsText {
        guard let limit = Int(maxClientsText), (1...4096).contains(limit) else { fail("--max-clients takes 1 to 4096.", status: 2) }
        server.clientLimit = limit
    }
} catch {
    fail("\(error)")
}

let scrubDuration = Double(scrubDurationText ?? (isDemo ? "214" : "0")) ?? -1
guard scrubDuration >= 0, scrubDuration <= 1e7 else { fail("--scrub-duration takes seconds from 0 to 10,000,000.", status: 2) }
var core = DaemonCore(configuration: configuration, scrubDurationSeconds: scrubDuration)
if framesText != nil { core.framesPerSecond = framesPerSecond }
let timelineDevices: [JSONValue] = timeline.map { timeline in
    let name = timeline.profileID.flatMap { configuration.device(profile: $0)?.name } ?? timeline.deviceName
    return [.object([("name", .string(name)), ("kind", .string(simulate != nil ? "simulated" : "replay")), ("path", .string(simulate ?? replay ?? ""))])]
} ?? []

// Hardware: configured devices, or discovery; they may come and go.
var manager: DeviceManager?
if timeline == nil, !noDevices {
    let backends = DeviceBackends(hardware: hardware, entries: configuration.devices)
    do {
        manager = try DeviceManager(
            loop: loop, wants: backends.wants, discover: backends.wants.isEmpty, inputDirectory: inputDirectory, gpioDirectory: gpioDirectory,
            opener: backends.opener)
    } catch {
        fail("\(error)")
    }
}
var devices: [JSONValue] {
    timelineDevices + (manager?.openDevices ?? []).map { device in
        .object([("name", .string(device.name)), ("kind", .string(device.kind)), ("path", .string(device.path))])
    }
}
// The metronome beat for devices with a light (configured `led: "beat"`): the only timer at rest then.
let beatLights = configuration.devices.contains { $0.led == "beat" }
var nextBeat: Nanoseconds? = beatLights ? MonotonicClock.now() : nil
// Input times never go back for the controls (a kernel timestamp may predate the last wakeup).
var coreTime: Nanoseconds = 0

// systemd's watchdog, when it asks for one: WATCHDOG=1 every half interval (the only timer at rest).
let watchdogInterval: Nanoseconds? = {
    guard let usec = Environment.value("WATCHDOG_USEC").flatMap(Int64.init), usec > 0 else { return nil }
    if let pid = Environment.value("WATCHDOG_PID").flatMap(Int32.init), pid != getpid() { return nil }
    return usec * 1000 / 2
}()
var nextWatchdog: Nanoseconds? = watchdogInterval.map { MonotonicClock.now() + $0 }

// The simulated device's configured role (matched by its profile), if the configuration names it.
var knobControl: String { (timeline?.profileID).flatMap { configuration.device(profile: $0)?.control } ?? "mode" }
var timelineDevice: DeviceManager.Open {
    DeviceManager.Open(name: timeline?.deviceName ?? "", path: simulate ?? replay ?? "", kind: timeline?.kind ?? "", profile: timeline?.profileID, control: knobControl)
}

// Input playback: item i happens at start + its time; nil start means waiting for clients.
var playbackStart: Nanoseconds?
var nextItem = 0
var lastFrame: Nanoseconds = 0

@MainActor func schedule() {
    var deadlines: [Nanoseconds] = []
    if let timeline, let start = playbackStart {
        if nextItem < timeline.items.count {
            deadlines.append(start + timeline.items[nextItem].timeNanoseconds)
        } else if loopInput {
            deadlines.append(start + timeline.loopPeriodNanoseconds)
        }
    }
    if let deadline = core.nextDeadline { deadlines.append(deadline) }
    if let nextWatchdog { deadlines.append(nextWatchdog) }
    if let deadline = manager?.nextDeadline { deadlines.append(deadline) }
    if let nextBeat, manager?.openDevices.isEmpty == false { deadlines.append(nextBeat) }
    let now = MonotonicClock.now()
    if core.framesPerSecond > 0, server.anyoneWantsFrames, core.isMoving(at: now) {
        let period = Nanoseconds((1e9 / core.framesPerSecond).rounded())
        deadlines.append(max(lastFrame + period, now))
    }
    loop.arm(at: deadlines.min())
}

@MainActor func wake() {
    let now = MonotonicClock.now()
    var messages: [ServerMessage] = []
    if let timeline, let start = playbackStart {
        while nextItem < timeline.items.count, start + timeline.items[nextItem].timeNanoseconds <= now {
            let (offset, item) = timeline.items[nextItem]
            messages += routed(timelineDevice, [DeviceInput(item, at: start + offset)])
            nextItem += 1
        }
        if nextItem >= timeline.items.count, loopInput, now >= start + timeline.loopPeriodNanoseconds {
            playbackStart = start + timeline.loopPeriodNanoseconds
            nextItem = 0
        }
    }
    manager?.wake(at: now)
    if let beat = nextBeat, now >= beat {
        manager?.beat(at: now)
        let period = Nanoseconds(60e9 / max(1, Double(core.tempo.bpm)))
        nextBeat = beat + period * max(1, (now - beat) / period + 1)
    }
    coreTime = max(coreTime, now)
    messages += core.advance(to: now)
    server.broadcast(messages)
    if let due = nextWatchdog, let interval = watchdogInterval, now >= due {
        SystemdNotify.send("WATCHDOG=1")
        nextWatchdog = now + interval
    }
    if core.framesPerSecond > 0, server.anyoneWantsFrames {
        let period = Nanoseconds((1e9 / core.framesPerSecond).rounded())
        if now - lastFrame >= period {
            let frames = core.frames(at: now)
            if !frames.isEmpty {
                server.broadcast(frames)
                lastFrame = now
            }
        }
    }
    schedule()
}

/// Input from a device, routed to the controls: knob motion to the device's control, buttons to
/// the button logic, the shuttle ring to the scrub, gaps to every client.
@MainActor func route(_ device: DeviceManager.Open, _ inputs: [DeviceInput]) {
    server.broadcast(routed(device, inputs))
    schedule()
}

@MainActor func routed(_ device: DeviceManager.Open, _ inputs: [DeviceInput]) -> [ServerMessage] {
    var messages: [ServerMessage] = []
    for input in inputs {
        let time = max(input.timeNanoseconds, coreTime)
        coreTime = time
        switch input.action {
        case .knob(let detents) where device.control != "none": messages += core.knob(by: detents, at: time, control: device.control)
        case .touch(let detents) where device.control != "none": messages += core.knob(by: detents, at: time, touching: true, control: device.control)
        case .lift where device.control != "none": messages += core.lift(at: time, control: device.control)
        case .button(let code, let pressed): messages += core.button(code, pressed: pressed, at: time)
        case .shuttle(let position) where device.control != "none": messages += core.shuttle(position: position, at: time)
        case .gap(let reason): messages.append(DaemonCore.gap(device: device.path, reason: reason, at: time))
        default: break
        }
    }
    return messages
}
if let manager {
    manager.onInput = { device, inputs in route(device, inputs) }
    manager.onChange = { action, device, time in
        server.broadcast([DaemonCore.device(action, name: device.name, path: device.path, kind: device.kind, at: time)])
        schedule()
    }
    manager.onProblem = { sentence in try? FileOutput.standardError.write("flywheeld: \(sentence)\n") }
}

server.hello = { time in core.hello(version: FlywheelVersion.string, devices: devices, at: time) }
server.onCommand = { command, time in
    let answer = core.handle(command, at: time)
    defer { schedule() }
    return answer
}
@MainActor func startPlayback() {
    let now = MonotonicClock.now()
    playbackStart = now
    if case .object(let fields)? = devices.first {
        let text = { (key: String) in fields.first(where: { $0.0 == key })?.1.stringValue ?? "" }
        server.broadcast([DaemonCore.device("added", name: text("name"), path: text("path"), kind: text("kind"), at: now)])
    }
}
server.onSubscriptionsChanged = {
    if playbackStart == nil, timeline != nil, server.clientCount >= holdUntil { startPlayback() }
    schedule()
}
loop.onTimer { wake() }
do {
    try loop.register(signals.fd, interest: .readable) { _ in
        for signal in signals.drain() {
            switch signal {
            case SIGHUP:
                // Reload without dropping clients; a bad file keeps the running configuration.
                do {
                    let reloaded = try loadConfiguration()
                    configuration = reloaded
                    let (next, ended) = core.reloaded(with: reloaded, at: max(coreTime, MonotonicClock.now())); core = next; server.broadcast(ended)
                    if framesText != nil { core.framesPerSecond = framesPerSecond }
                    server.queueLimit = reloaded.queueMessages
                    server.clientLimit = CommandLineSettings(maxClients: maxClientsText.flatMap { Int($0) }).clientLimit(under: reloaded)
                    try? FileOutput.standardError.write("flywheeld: reloaded \(configPath); socket settings take effect on restart.\n")
                } catch {
                    try? FileOutput.standardError.write("flywheeld: kept the running configuration: \(error)\n")
                }
                server.broadcast([core.state(at: MonotonicClock.now())])
                schedule()
            default: loop.stop()
            }
        }
    }
} catch {
    fail("\(error)")
}
if timeline != nil, holdUntil == 0 { startPlayback() }
do { try manager?.start() } catch { fail("\(error)") }
schedule()
SystemdNotify.send("READY=1")
do {
    try loop.run()
} catch {
    server.shutdown()
    fail("\(error)")
}
SystemdNotify.send("STOPPING=1")
manager?.shutdown()
server.shutdown()
exit(0)
