// flywheeld: serves tempo and scrub events from knobs with physical feel on a Unix socket.
import FlywheelCLI
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
if let unknown = arguments.first { fail("unknown option '\(unknown)'; run 'flywheeld --help'.", status: 2) }
guard holdUntil >= 0 else { fail("--hold-until-clients takes a whole number.", status: 2) }
guard let framesPerSecond = Double(framesText ?? "60"), framesPerSecond >= 0, framesPerSecond <= 240 else {
    fail("--frames takes 0 to 240 per second, not '\(framesText ?? "")'.", status: 2)
}
if simulate != nil && replay != nil { fail("choose one of --simulate and --replay.", status: 2) }
let isDemo = simulate == "demo"

// The configuration.
let configPath = configOption ?? "/etc/flywheel/flywheel.json5"
@MainActor func loadConfiguration() throws -> FlywheelConfiguration {
    guard configOption != nil || FileSystem.exists(configPath) else { return FlywheelConfiguration() }
    let bytes = try FileSystem.readFile(configPath)
    return try FlywheelConfiguration.parse(bytes, file: configPath)
}
var configuration: FlywheelConfiguration
do { configuration = try loadConfiguration() } catch { fail("\(error)") }
if checkConfig {
    try? FileOutput.standardOutput.write("\(configPath): the configuration is valid.\n")
    exit(0)
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
let devices: [JSONValue] = timeline.map { timeline in
    let name = timeline.profileID.flatMap { configuration.device(profile: $0)?.name } ?? timeline.deviceName
    return [.object([("name", .string(name)), ("kind", .string(simulate != nil ? "simulated" : "replay")), ("path", .string(simulate ?? replay ?? ""))])]
} ?? []

// systemd's watchdog, when it asks for one: WATCHDOG=1 every half interval (the only timer at rest).
let watchdogInterval: Nanoseconds? = {
    guard let usec = Environment.value("WATCHDOG_USEC").flatMap(Int64.init), usec > 0 else { return nil }
    if let pid = Environment.value("WATCHDOG_PID").flatMap(Int32.init), pid != getpid() { return nil }
    return usec * 1000 / 2
}()
var nextWatchdog: Nanoseconds? = watchdogInterval.map { MonotonicClock.now() + $0 }

// The simulated device's configured role (matched by its profile), if the configuration names it.
var knobControl: String { (timeline?.profileID).flatMap { configuration.device(profile: $0)?.control } ?? "mode" }

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
            deadlines.append(start + timeline.endNanoseconds)
        }
    }
    if let deadline = core.nextDeadline { deadlines.append(deadline) }
    if let nextWatchdog { deadlines.append(nextWatchdog) }
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
            let time = start + offset
            switch item {
            case .knob(let detents): messages += core.knob(by: detents, at: time, control: knobControl)
            case .touch(let detents): messages += core.knob(by: detents, at: time, touching: true, control: knobControl)
            case .lift: messages += core.lift(at: time, control: knobControl)
            case .button(let code, let pressed): messages += core.button(code, pressed: pressed, at: time)
            }
            nextItem += 1
        }
        if nextItem >= timeline.items.count, loopInput, now >= start + timeline.endNanoseconds {
            playbackStart = start + timeline.endNanoseconds
            nextItem = 0
        }
    }
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
                    core = core.reconfigured(with: reloaded)
                    if framesText != nil { core.framesPerSecond = framesPerSecond }
                    server.queueLimit = reloaded.queueMessages
                    server.clientLimit = reloaded.maxClients
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
schedule()
SystemdNotify.send("READY=1")
do {
    try loop.run()
} catch {
    server.shutdown()
    fail("\(error)")
}
SystemdNotify.send("STOPPING=1")
server.shutdown()
exit(0)
