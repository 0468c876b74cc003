import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import FlywheelFormats
import FlywheelSimulator

/// `flywheel sim SCENARIO.sim [--seed N] [--hardware DIR] (--emit edges|evemu | --truth)`
enum SimCommand {
    static let usage = """
        flywheel sim SCENARIO [--seed N] [--hardware DIR] (--emit edges|evemu | --truth)
            Run the firmware simulator on a scenario: a .sim file, or a bundled one by name (flick, demo,
            bouncy-knob, …: hardware/scenarios). --emit edges writes the GPIO edge log the host
            would read through libgpiod; --emit evemu writes the evdev events the device's driver or
            firmware would report, with the device description; --truth prints the true net detents.
        flywheel sim SCENARIO (--uinput [--report-led] | --gpio-sim NAME [--pi-header]) [--no-wait] [--linger S]
            Play the scenario in real time into the real kernel: --uinput as a uinput device with the
            profile's name and USB ids (PowerMate, ShuttleXpress, a kernel rotary-encoder lookalike);
            --gpio-sim as a gpio-sim chip NAME whose lines 0, 1, 2 (A, B, button) follow the contacts,
            bounce included; with --pi-header the chip is wired as a Raspberry Pi header instead: lines
            GPIO0 to GPIO27 by name, the encoder on GPIO17 (A), GPIO27 (B) and GPIO22 (button). It waits (10 s at most) for a reader to take the device unless --no-wait,
            and removes it after the last event (--linger S keeps it S seconds longer). --report-led prints
            each LED write the uinput device receives (a PowerMate's MSC_PULSELED) as a line
            `led VALUE SECONDS`, SECONDS on CLOCK_MONOTONIC.
            Example: flywheel sim bouncy-knob --emit edges > bouncy.edges
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
        let piHeader = args.flag("pi-header")
        let reportsLED = args.flag("report-led")
        let linger = try FeelOptions.number(&args, "linger", default: 0)!
        let path = try BundledScenarios(hardware: hardware).path(for: try args.positionals("one SCENARIO (a .sim file or a bundled name)", count: 1...1)[0])
        guard [truth, emit != nil, uinput, gpioSim != nil].filter({ $0 }).count == 1 else {
            throw .usage("'sim' needs exactly one of these: --emit edges|evemu, --truth, --uinput or --gpio-sim NAME", help: true)
        }
        guard !reportsLED || uinput else { throw .usage("--report-led goes with --uinput") }
        guard !piHeader || gpioSim != nil else { throw .usage("--pi-header goes with --gpio-sim NAME") }
        guard linger >= 0, linger <= 3600 else { throw .usage("--linger takes 0 to 3600 seconds") }
        var seed: UInt64?
        if let seedText {
            guard let value = UInt64(seedText) else { throw .usage("--seed must be a whole number from 0 to 2^64-1, not '\(seedText)'") }
            seed = value
        }
        let result = try ScenarioRun.load(path, seed: seed, hardware: hardware)
        if uinput {
            try SimPlayback.uinput(result, path: path, waitForReader: !noWait, lingerSeconds: linger, reportsLED: reportsLED, console: console)
            return
        }
        if let gpioSim {
            let wiring: SimPlayback.GPIOSimWiring = piHeader ? .piHeader : .threeLines(gpioSim)
            try SimPlayback.gpioSim(result, path: path, name: gpioSim, wiring: wiring, waitForReader: !noWait, lingerSeconds: linger, console: console)
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
            console.out(EvemuRecording(profile: result.simulation.profile, events: events).text())
        default:
            throw .usage("--emit takes edges or evemu, not '\(emit ?? "")'")
        }
    }
}
