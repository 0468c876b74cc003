import FlywheelCore
import FlywheelIO

/// flywheeld's command line.
public struct DaemonOptions: Sendable {
    /// The configuration file; nil: the default path, where a missing file means the defaults.
    public var configPath: String?
    /// Validate the configuration and exit.
    public var checkConfig = false
    /// Where to listen; nil: systemd's socket, the configuration's path or the default.
    public var socketPath: String?
    /// A scenario to simulate in real time (`demo` for the built-in one).
    public var simulate: String?
    /// A recording to replay in real time.
    public var replay: String?
    /// VCD channel names (`A,B`) for a replay.
    public var channels: String?
    /// A `hardware/` folder searched first for profiles and scenarios.
    public var hardware: String?
    /// Start the simulation or replay again when it ends.
    public var loop = false
    /// Start the input once this many clients are connected.
    public var holdUntilClients = 0
    /// Continuous frames per second (nil: the configuration's).
    public var framesPerSecond: Double?
    /// The scrub content's length until a client sets it (nil: 0, or 214 s for the demo).
    public var scrubDurationSeconds: Double?
    /// Clients served at once (nil: the configuration's); outranks the file across reloads.
    public var maxClients: Int?
    /// Where evdev nodes appear.
    public var inputDirectory = "/dev/input"
    /// Where GPIO chips appear.
    public var gpioDirectory = "/dev"
    /// Take no hardware.
    public var noDevices = false
    /// Say nothing at start (the line naming the socket and the input).
    public var quiet = false
    /// The state file (`--state FILE`); nil: `$STATE_DIRECTORY/state` under systemd, else none.
    public var statePath: String?

    /// The state file used: `--state FILE`, else, serving devices (not `--simulate` nor
    /// `--replay`), `state` in systemd's first `$STATE_DIRECTORY` (`StateDirectory=flywheel`:
    /// /var/lib/flywheel/state); else none.
    public var stateFile: String? {
        if let statePath { return statePath }
        guard simulate == nil, replay == nil, let directory = Environment.value("STATE_DIRECTORY")?.split(separator: ":").first else { return nil }
        return directory + "/state"
    }

    /// The default configuration file.
    public static let defaultConfigPath = ConfigurationFile.defaultPath

    /// The configuration file read.
    public var configFile: String { configPath ?? Self.defaultConfigPath }

    /// What the command line sets that outranks the configuration file, at start and on reload.
    public var commandLineSettings: CommandLineSettings {
        CommandLineSettings(maxClients: maxClients, framesPerSecond: framesPerSecond)
    }

    /// Whether it plays the built-in demo.
    public var isDemo: Bool { Self.isDemo(simulate) }

    /// Whether `scenario` names the built-in demo.
    public static func isDemo(_ scenario: String?) -> Bool { scenario == "demo" || scenario == "demo.sim" }

    /// The scrub content's length until a client sets it, when `--scrub-duration` is not given:
    /// 214 s (a 3:34 song) for the demo, else 0. `flywheel replay` uses the same, so a scenario
    /// gives the same messages through replay and through the socket.
    public static func defaultScrubDuration(playing scenario: String?) -> Double { isDemo(scenario) ? 214 : 0 }

    /// What `--help` prints.
    public static let usage = """
        flywheeld — serves tempo and scrub events from knobs, jog wheels and touch panels on a Unix socket.

        Usage: flywheeld [--config PATH] [--check-config] [--socket PATH] [--quiet] [--verbose]
                         [--simulate SCENARIO [--loop]] [--replay FILE [--channels A,B] [--loop]] [--hardware DIR]
                         [--hold-until-clients N] [--frames HZ] [--scrub-duration S] [--max-clients N]
                         [--input-dir DIR] [--gpio-dir DIR] [--no-devices] [--state FILE] [--help] [--version]

          --config PATH       the configuration (JSON5; default /etc/flywheel/flywheel.json5, absent = defaults;
                              udev/flywheel.json5 is a commented one to start from); SIGHUP reloads it
          --check-config      check the configuration and what it asks of this system, and exit
          --socket PATH       where to listen (default $RUNTIME_DIRECTORY/flywheel.sock, else
                              /run/flywheel/flywheel.sock as root, else $XDG_RUNTIME_DIR/flywheel.sock);
                              systemd socket activation (LISTEN_FDS) is used when present
          --quiet             do not say where it listens and what it serves when it starts
          --verbose           name the C function in a failed system call's sentence (for a bug report)
          --simulate SCENARIO drive the knob from the firmware simulator in real time: a .sim file, or a
                              bundled scenario by name (demo, flick, bouncy-knob, …: hardware/scenarios)
          --replay FILE       serve a recording (.edges, .vcd, evemu) in real time
          --channels A,B      a .vcd recording's A and B channels, by name
          --loop              start the scenario or recording again when it ends
          --hardware DIR      a folder of device profiles and scenarios, searched first
          --hold-until-clients N  start the input once N clients are connected (for tests and demos)
          --frames HZ         continuous frames while in motion for clients that ask (default 60, 0 = none)
          --scrub-duration S  the scrub content's length until a client sets it (default 0; the demo: 214)
          --max-clients N     clients served at once (default 256); one more is told so and closed
          --input-dir DIR     where evdev nodes appear (default /dev/input)
          --gpio-dir DIR      where GPIO chips appear (default /dev)
          --no-devices        take no hardware (only --simulate/--replay input)
          --state FILE        keep the tempo, volume and mode in FILE across restarts and power cuts
                              (default under systemd: $STATE_DIRECTORY/state, /var/lib/flywheel/state;
                              else none; never with --simulate or --replay unless given)
          --help, -h          print this and exit
          --version           print the version and exit

        Without --simulate or --replay, flywheeld takes the devices the configuration lists (evdev paths
        or GPIO lines), or, when it lists none, every knob it recognises in /dev/input; devices may come
        and go while it runs.

        Example: flywheeld --simulate demo --loop --socket /tmp/flywheel.sock
                 (then, in another terminal: flywheel watch --socket /tmp/flywheel.sock)

        The protocol is documented in the FlywheelCore documentation (Protocol), installed as
        /usr/share/doc/flywheel/Protocol.md.

        """

    /// What to do.
    public enum Action: Sendable {
        /// Serve.
        case serve(DaemonOptions)
        /// Print this text to standard output and exit 0.
        case print(String)
    }

    /// Reads flywheeld's arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(ToolError) -> Action {
        var args = Arguments(arguments, command: "flywheeld")
        if args.flag("help") || arguments.contains("-h") { return .print(usage) }
        if args.flag("version") {
            return .print("flywheeld \(FlywheelVersion.string) (protocol \(DaemonCore.protocolVersion).\(DaemonCore.protocolMinorVersion))\n")
        }
        var options = DaemonOptions()
        options.configPath = try args.option("config")
        options.checkConfig = args.flag("check-config")
        options.socketPath = try args.option("socket")
        options.simulate = try args.option("simulate")
        options.replay = try args.option("replay")
        options.channels = try args.option("channels")
        options.hardware = try args.option("hardware")
        options.loop = args.flag("loop")
        options.holdUntilClients = try args.integer("hold-until-clients", in: 0...4096) ?? 0
        options.framesPerSecond = try args.number("frames", in: 0...240)
        options.scrubDurationSeconds = try args.number("scrub-duration", in: 0...1e7)
        options.maxClients = try args.integer("max-clients", in: 1...4096)
        options.inputDirectory = try args.option("input-dir") ?? options.inputDirectory
        options.gpioDirectory = try args.option("gpio-dir") ?? options.gpioDirectory
        options.noDevices = args.flag("no-devices")
        options.quiet = args.flag("quiet")
        if args.flag("verbose") { SystemError.namesFunctions.store(true, ordering: .relaxed) }
        options.statePath = try args.option("state")
        if let path = options.statePath, path.isEmpty || path.hasSuffix("/") {
            throw .usage("--state takes a file's path, not '\(path)'")
        }
        _ = try args.positionals("no other arguments", count: 0...0)
        if options.simulate != nil && options.replay != nil { throw .usage("choose one of --simulate and --replay") }
        if options.loop && options.simulate == nil && options.replay == nil {
            throw .usage("--loop repeats a --simulate scenario or a --replay recording; give one of them, or leave --loop out")
        }
        if options.channels != nil && options.replay == nil {
            throw .usage("--channels chooses a --replay .vcd recording's A and B channels; give --replay FILE.vcd with it")
        }
        return .serve(options)
    }
}
