import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import FlywheelSimulator
import Glibc

/// `flywheel soak --minutes N`: a bouncy encoder spun with random gestures through the whole daemon
/// for N minutes; the detents counted must equal the simulator's truth and the daemon's memory must
/// stay flat.
enum SoakCommand {
    static let usage = """
        flywheel soak --minutes N [--seed S] [--pass-minutes M] [--hardware DIR] [--print-scenario]
            Run flywheeld on N minutes of random gestures (turns, flicks, wiggles, jitter, presses) of a
            bouncy EC11, in real time, and check that the tempo moved by exactly the simulator's true
            detents and that the daemon's resident memory stayed flat. Past M minutes (default and most 8)
            one pass is played again and again (a scenario file lasts at most 10), the count checked
            after every pass. Prints a JSON summary; exit 1 on
            a lost detent or growing memory. --print-scenario prints the generated .sim instead (to
            reproduce a run with flywheel sim, decode or replay).
            Example: flywheel soak --minutes 2 --seed 7
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "soak")
        let minutes = try FeelOptions.number(&args, "minutes", default: nil)
        let seedText = try args.option("seed") ?? "1"
        let hardware = try args.option("hardware")
        let printScenario = args.flag("print-scenario")
        let passMinutes = try FeelOptions.number(&args, "pass-minutes", default: Self.passMinutes) ?? Self.passMinutes
        _ = try args.positionals("no files", count: 0...0)
        guard let minutes, minutes > 0, minutes <= 24 * 60 else { throw .usage("'soak' needs --minutes N, from a fraction up to 1440", help: true) }
        guard passMinutes > 0, passMinutes <= Self.passMinutes else { throw .usage("--pass-minutes must be above 0 and at most \(Self.passMinutes)") }
        guard let seed = UInt64(seedText) else { throw .usage("--seed must be a whole number, not '\(seedText)'") }
        let hardwareFolders = ProfileLibrary.searchPath(explicit: hardware, scenarioPath: nil)
        let profile = try ProfileLibrary(directories: hardwareFolders).profile("ec11")
        guard let hardwareFolder = hardwareFolders.first(where: { FileSystem.exists($0 + "/ec11.profile") }) else {
            throw ToolError("no hardware/ folder with ec11.profile; give --hardware DIR")
        }

        // The gestures: random chunks, each followed by a turn back when the count has drifted, so
        // the tempo never reaches the ends of its range (where it would clamp, not count).
        // A scenario file is limited to 10 minutes (a bound on what a file can make the simulator
        // hold): a longer soak plays one pass of at most passMinutes again and again (--loop), and
        // checks the count at the end of every pass.
        let passes = Int((minutes / passMinutes).rounded(.up))
        var steps: [ScenarioStep] = []
        var planned: Nanoseconds = 0
        var drift = 0
        var chunk: UInt64 = 0
        var first: Scenario?
        while planned < Nanoseconds(minutes / Double(passes) * 60e9) {
            let random = Scenario.random(seed: seed &* 1000 &+ chunk, profile: profile, gestures: 30)
            if first == nil { first = random }
            chunk += 1
            guard let result = try? Simulation(scenario: random, profile: profile).run() else { continue }
            steps += random.steps
            planned += result.endNanoseconds
            drift += result.truthDetents
            if abs(drift) > 40 {
                steps.append(ScenarioStep(gesture: .turn(detents: -drift, speed: 20), line: 0))
                planned += Nanoseconds(Double(abs(drift)) / 20 * 1e9)
                drift = 0
            }
        }
        // The pass ends at rest: its count is read in the last seconds, before the next pass begins.
        steps.append(ScenarioStep(gesture: .hold(nanoseconds: Self.restNanoseconds), line: 0))
        let scenario = Scenario(
            file: "soak.sim", name: "soak \(seed)", notes: "\(chunk) random chunks, played \(passes) times for \(minutes) minutes", device: profile.id, deviceLine: 0,
            seed: seed, bounce: first?.bounce, chatter: first?.chatter, friction: nil, counterStart: nil, steps: steps)
        let truth: Int
        let duration: Nanoseconds
        do {
            let result = try Simulation(scenario: scenario, profile: profile).run()
            truth = result.truthDetents
            duration = result.endNanoseconds
        } catch {
            throw ToolError("the soak scenario did not simulate: \(error)")
        }

        if printScenario {
            console.out(scenario.text)
            return
        }
        var template = Array("/tmp/flywheel-soak-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ToolError("mkdtemp failed: \(Errno.describe(errno))") }
        let directory = String(cString: made)
        defer {
            for name in (try? FileSystem.listDirectory(directory)) ?? [] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        let start = 500
        do {
            try FileOutput.create(directory + "/soak.sim").write(scenario.text)
            try FileOutput.create(directory + "/soak.json5").write("""
                { feel: { min_fling_speed: 1000 }, controls: { tempo: { range: [1, 1000], bpm: \(start), acceleration: "off" }, mode: { segments: ["tempo"] } } }
                """)
        } catch {
            throw ToolError(error)
        }
        let socketPath = directory + "/flywheel.sock"
        let daemonPath = daemonExecutable()
        let daemon: ChildProcess
        do {
            daemon = try ChildProcess(
                [daemonPath, "--simulate", directory + "/soak.sim", "--hold-until-clients", "1", "--config", directory + "/soak.json5",
                 "--socket", socketPath, "--frames", "0", "--no-devices", "--hardware", hardwareFolder] + (passes > 1 ? ["--loop"] : []),
                environment: ["PATH=/usr/bin:/bin"])
        } catch {
            throw ToolError(error)
        }
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.wait()
        }
        let client = try connect(socketPath, daemon: daemon)
        var gaps = 0
        do {
            _ = try client.readLine()  // hello
            try client.send("{\"cmd\":\"watch\",\"classes\":[\"gap\"],\"frames\":false}")  // playback starts now
        } catch {
            throw ToolError(error)
        }
        let began = MonotonicClock.now()
        var samples: [Int] = []
        // Pass k ends at began + k·duration; its count is read restNanoseconds/2 before (the knob
        // settled, the next pass not begun); the memory is sampled every 10 s meanwhile.
        var counts: [Int] = []
        var nextSample = began + 10_000_000_000
        for pass in 1...passes {
            let check = began + Nanoseconds(pass) * duration - Self.restNanoseconds / 2
            while nextSample < check {
                MonotonicClock.sleep(until: nextSample)
                if let rss = daemon.residentKilobytes { samples.append(rss) }
                if samples.count % 6 == 0 {
                    console.err("soak: \(Int((MonotonicClock.now() - began) / 60_000_000_000)) of \(Int(minutes.rounded(.up))) minutes, RSS \(samples.last ?? 0) KiB\n")
                }
                nextSample += 10_000_000_000
            }
            MonotonicClock.sleep(until: check)
            do {
                try client.send("{\"cmd\":\"get\"}")
                while let line = try client.readLine(timeoutMilliseconds: 30_000) {
                    guard let message = try? JSONParser.parse(Array(line.utf8)) else { continue }
                    if message["class"] == .string("gap") { gaps += 1 }
                    if message["class"] == .string("state") {
                        counts.append((message["tempo"]?["bpm"]?.doubleValue.map { Int($0) } ?? 0) - start)
                        break
                    }
                }
            } catch {
                throw ToolError(error)
            }
        }
        let cpu = daemon.cpuTicks ?? 0
        // Every pass moves the knob by the same truth: after pass k the count is k times it.
        let expected = (1...passes).map { $0 * truth }
        let baseline = samples.first ?? 0
        let peak = samples.max() ?? 0
        let last = samples.last ?? 0
        // Flat: the last sample within 10 % (and 1 MiB) of the first, taken 10 s in.
        let flat = samples.count < 2 || last <= baseline + baseline / 10 + 1024
        let counted = counts.last ?? 0
        let total = passes * truth
        let summary = JSONValue.object([
            ("minutes", .double(minutes)), ("seed", .int(Int(seed))), ("gestures", .int(passes * steps.count)), ("passes", .int(passes)),
            ("truth_detents", .int(total)), ("counted_detents", .int(counted)), ("lost_detents", .int(total - counted)), ("gaps", .int(gaps)),
            ("rss_kib_first", .int(baseline)), ("rss_kib_peak", .int(peak)), ("rss_kib_last", .int(last)), ("rss_samples", .int(samples.count)),
            ("cpu_seconds", .double(Double(cpu) / Double(sysconf(Int32(_SC_CLK_TCK))))),
            ("passed", .bool(counts == expected && flat && gaps == 0)),
        ])
        console.out(summary.encoded() + "\n")
        guard counts == expected else {
            let pass = counts.indices.first { counts[$0] != expected[$0] } ?? 0
            throw ToolError("the soak lost detents: after pass \(pass + 1) the tempo had moved \(counts[pass]) where the knob moved \(expected[pass])")
        }
        guard flat else { throw ToolError("flywheeld's memory grew from \(baseline) KiB to \(last) KiB") }
        guard gaps == 0 else { throw ToolError("\(gaps) gaps were reported for simulated input") }
    }

    /// The longest pass: a scenario file may last 10 minutes.
    static let passMinutes = 8.0
    /// The rest that ends every pass.
    static let restNanoseconds: Nanoseconds = 4_000_000_000

    /// flywheeld beside this executable (the build folder or the install), else on PATH.
    static func daemonExecutable() -> String {
        let executable = CommandLine.arguments.first ?? ""
        if executable.contains("/") {
            let sibling = String(executable[..<executable.lastIndex(of: "/")!]) + "/flywheeld"
            if FileSystem.exists(sibling) { return sibling }
        }
        return "/usr/local/bin/flywheeld"
    }

    static func connect(_ path: String, daemon: ChildProcess) throws(ToolError) -> StreamConnection {
        let deadline = MonotonicClock.now() + 10_000_000_000
        while true {
            if let client = try? StreamConnection(connectingTo: path) { return client }
            guard MonotonicClock.now() < deadline else { throw ToolError("flywheeld did not open \(path) within 10 s") }
            MonotonicClock.sleep(until: MonotonicClock.now() + 20_000_000)
        }
    }
}
