import FlywheelCore
import FlywheelIO
import FlywheelReplay
import FlywheelSimulator

/// `flywheel sim SCENARIO.sim [--seed N] [--hardware DIR] (--emit edges|evemu | --truth)`
enum SimCommand {
    static let usage = """
        flywheel sim SCENARIO.sim [--seed N] [--hardware DIR] (--emit edges|evemu | --truth)
            Run the firmware simulator on a scenario. --emit edges writes the GPIO edge log the host
            would read through libgpiod; --emit evemu writes the evdev events the device's driver or
            firmware would report, with the device description; --truth prints the true net detents.
        flywheel sim SCENARIO.sim (--uinput | --gpio-sim NAME) [--no-wait] [--linger S]
            Play the scenario in real time into the real kernel: --uinput as a uinput device with the
            profile's name and USB ids (PowerMate, ShuttleXpress, a kernel rotary-encoder lookalike);
            --gpio-sim as a gpio-sim chip NAME whose lines 0, 1, 2 (A, B, button) follow the contacts,
            bounce included. It waits (10 s at most) for a reader to take the device unless --no-wait,
            and removes it after the last event (--linger S keeps it S seconds longer).
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "sim")
        let seedText = try args.option("seed")
        let emit = try args.option("emit")
        let hardware = try args.option("hardware")
        let truth = args.flag("truth")
        let uinput = args.flag("uinput")
        let gpioSim = try args.option("gpio-sim")
        let noWait = args.flag("no-wait")
        let linger = try FeelOptions.number(&args, "linger", default: 0)!
        let path = try args.positionals("one SCENARIO.sim file", count: 1...1)[0]
        guard [truth, emit != nil, uinput, gpioSim != nil].filter({ $0 }).count == 1 else {
            throw .usage("'sim' needs exactly one of --emit edges|evemu, --truth, --uinput and --gpio-sim NAME")
        }
        guard linger >= 0, linger <= 3600 else { throw .usage("--linger takes 0 to 3600 seconds") }
        var seed: UInt64?
        if let seedText {
            guard let value = UInt64(seedText) else { throw .usage("--seed must be a whole number from 0 to 2^64-1, not '\(seedText)'") }
            seed = value
        }
        let result = try simulate(path, seed: seed, hardware: hardware)
        if uinput {
            try SimPlayback.uinput(result, path: path, waitForReader: !noWait, lingerSeconds: linger, console: console)
            return
        }
        if let gpioSim {
            try SimPlayback.gpioSim(result, path: path, name: gpioSim, waitForReader: !noWait, lingerSeconds: linger, console: console)
            return
        }
        if truth {
            console.out("\(result.truthDetents)\n")
            return
        }
        switch emit {
        case "edges":
            let notes = [result.scenarioNotes, "device: \(result.simulation.profile.id), seed: \(result.simulation.seed), truth: \(result.simulation.truthDetents) detents"]
                .filter { !$0.isEmpty }.joined(separator: "\n")
            console.out(EdgeLog(name: result.scenarioName, notes: notes, trace: result.simulation.gpioTrace).text())
        case "evemu":
            let events = result.simulation.inputEvents
            guard !events.isEmpty || result.simulation.profile.report != .gpio else {
                throw ToolError("\(path): device '\(result.simulation.profile.id)' is wired to GPIO and has no evdev events; use --emit edges")
            }
            console.out(evemu(for: result.simulation.profile, events: events).text())
        default:
            throw .usage("--emit takes edges or evemu, not '\(emit ?? "")'")
        }
    }

    struct Outcome {
        var simulation: SimulationResult
        var scenarioName: String?
        var scenarioNotes: String
        var truthDetents: Int { simulation.truthDetents }
    }

    /// Loads and runs a scenario with its device profile.
    static func simulate(_ path: String, seed: UInt64?, hardware: String?) throws(ToolError) -> Outcome {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path) } catch { throw ToolError(error.description) }
        let scenario: Scenario
        do { scenario = try Scenario.parse(String(decoding: bytes, as: UTF8.self), file: path) } catch {
            throw ToolError("\(error)")
        }
        let library = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: path))
        let profile = try library.profile(scenario.device)
        do {
            let simulation = try Simulation(scenario: scenario, profile: profile, seed: seed)
            return Outcome(simulation: simulation.run(), scenarioName: scenario.name.isEmpty ? nil : scenario.name, scenarioNotes: scenario.notes)
        } catch {
            throw ToolError("\(error)")
        }
    }

    /// An evemu recording with the device's description: name, USB ids and the capability bits of
    /// every event type and code it reports.
    static func evemu(for profile: DeviceProfile, events: [InputEvent]) -> EvemuRecording {
        var codes: [UInt16: Set<UInt16>] = [:]
        for code in profile.buttons { codes[EventType.key, default: []].insert(code) }
        for event in events where event.type != EventType.syn { codes[event.type, default: []].insert(event.code) }
        // BUS_HOST for platform devices, BUS_USB for USB ones.
        var recording = EvemuRecording(describing: InputDeviceDescription(
            name: profile.name, bus: profile.usb == nil ? 0x19 : 0x03, vendor: profile.usb?.vendor ?? 0,
            product: profile.usb?.product ?? 0, version: 1, codes: codes))
        recording.events = events
        return recording
    }
}
