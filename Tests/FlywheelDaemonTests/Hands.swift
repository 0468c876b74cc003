import FlywheelCore
import FlywheelDaemon
import FlywheelSimulator
import Glibc

/// Scripted hands: a scenario run through the firmware simulator, its device's input decoded as
/// the live backend would, and the daemon's pipeline run over it in virtual time — what
/// `flywheel replay` prints, as parsed messages.
enum Hands {
    /// The package root, found from this file's path.
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// A profile from `hardware/<id>.profile`.
    static func profile(_ id: String) throws -> DeviceProfile {
        let path = root + "/hardware/\(id).profile"
        guard let file = fopen(path, "r") else { throw HandsError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return try DeviceProfile.parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// The EC11's mechanics and bounce with one quarter step per detent and 80 detents a turn.
    static func oneStepEncoder() throws -> DeviceProfile {
        var profile = try self.profile("ec11")
        profile.stepsPerDetent = .one
        profile.detentsPerRevolution = 80
        return profile
    }

    /// What one run produced.
    struct Run {
        var simulation: SimulationResult
        var messages: [JSONValue]
        /// When the decoded knob input came (the hand's detents), in seconds.
        var knobInputSeconds: [Double]

        /// Messages of one class.
        func messages(_ className: String) -> [JSONValue] { messages.filter { $0["class"]?.stringValue == className } }
        /// Messages of one class and phase.
        func messages(_ className: String, phase: String) -> [JSONValue] {
            messages(className).filter { $0["phase"]?.stringValue == phase }
        }
    }

    /// Runs `script` (scenario commands, one per line) on `profile` with `seed` through the pipeline
    /// with the knob pinned to `control`.
    static func run(
        _ script: String, profile: DeviceProfile, seed: UInt64, control: Control = .tempo, durationSeconds: Double = 214,
        positionSeconds: Double = 0, framesPerSecond: Double = 0
    ) throws -> Run {
        let scenario = try Scenario.parse("device \(profile.id)\n" + script, file: "hands.sim")
        let simulation = try Simulation(scenario: scenario, profile: profile, seed: seed).run()
        let timeline = InputTimeline(simulation: simulation)
        let core = DaemonCore(
            scrubber: Scrubber(durationSeconds: durationSeconds, positionSeconds: positionSeconds), modes: [control],
            framesPerSecond: framesPerSecond)
        let pipeline = Pipeline(core: core)
        pipeline.wantsFrames = framesPerSecond > 0
        let device = InputDevice(name: timeline.deviceName, path: "hands.sim", kind: timeline.kind, route: .pinned(control))
        let playback = Playback(
            items: timeline.items.map { ($0.timeNanoseconds, $0.item) }, endNanoseconds: timeline.endNanoseconds, device: device,
            loops: false, start: 0)
        pipeline.play(playback)
        let messages = pipeline.runToEnd()
        let knobInputs = timeline.items.filter { if case .knob = $0.item { return true } else { return false } }
        return Run(
            simulation: simulation,
            messages: try messages.map { try JSONParser.parse($0.bytesWithoutSeq) },
            knobInputSeconds: knobInputs.map { Double($0.timeNanoseconds) / 1e9 })
    }
}

struct HandsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Hands {
    /// One hand on one device: its scenario, profile and seed, and the device as the pipeline sees it.
    struct Hand {
        var script: String
        var profile: DeviceProfile
        var seed: UInt64
        var device: InputDevice
    }

    /// Runs several hands at once, each on its own device, through one pipeline in virtual time:
    /// each scenario simulated and decoded, the inputs of all devices fed in time order (ties in
    /// the order of `hands`), then everything due until the controls rest.
    static func run(
        _ hands: [Hand], modes: [Control] = [.tempo], durationSeconds: Double = 214, positionSeconds: Double = 0,
        framesPerSecond: Double = 0
    ) throws -> Run {
        var inputs: [(time: Nanoseconds, hand: Int, action: DeviceInput.Action)] = []
        var simulations: [SimulationResult] = []
        for (index, hand) in hands.enumerated() {
            let scenario = try Scenario.parse("device \(hand.profile.id)\n" + hand.script, file: "hands-\(index).sim")
            let simulation = try Simulation(scenario: scenario, profile: hand.profile, seed: hand.seed).run()
            simulations.append(simulation)
            inputs += InputTimeline(simulation: simulation).items.map { ($0.timeNanoseconds, index, $0.item) }
        }
        inputs = inputs.enumerated().sorted { ($0.element.time, $0.element.hand, $0.offset) < ($1.element.time, $1.element.hand, $1.offset) }
            .map(\.element)
        let core = DaemonCore(
            scrubber: Scrubber(durationSeconds: durationSeconds, positionSeconds: positionSeconds), modes: modes,
            framesPerSecond: framesPerSecond)
        let pipeline = Pipeline(core: core)
        pipeline.wantsFrames = framesPerSecond > 0
        var messages: [ServerMessage] = []
        for input in inputs {
            pipeline.input([DeviceInput(input.action, at: input.time)], from: hands[input.hand].device)
            messages += pipeline.takeMessages()
        }
        messages += pipeline.runToEnd()
        let knobInputs = inputs.filter { if case .knob = $0.action { return true } else { return false } }
        return Run(
            simulation: simulations[0],
            messages: try messages.map { try JSONParser.parse($0.bytesWithoutSeq) },
            knobInputSeconds: knobInputs.map { Double($0.time) / 1e9 })
    }

    /// A simulated knob on `path` pinned to `control`.
    static func knob(_ path: String, control: Control = .tempo, kind: DeviceKind = .simulated) -> InputDevice {
        InputDevice(name: path, path: path, kind: kind, route: .pinned(control))
    }
}
