import FlywheelCore
import FlywheelFormats
import FlywheelSimulator

/// What a recording or a scenario does to a knob and its buttons, as a timeline: used by
/// `flywheel replay` in virtual time and by `flywheeld --simulate/--replay` in real time. Every
/// source goes through the backends' own interpreters (``DeviceReplay``), so a replay decodes
/// exactly as the live device would.
public struct InputTimeline: Sendable {
    /// One step of the timeline: what the device backend reports.
    public typealias Item = DeviceInput.Action

    /// Items with times in nanoseconds from the start of the recording, in order.
    public var items: [(timeNanoseconds: Nanoseconds, item: Item)]
    /// When the recording ends.
    public var endNanoseconds: Nanoseconds
    /// A short description of the source device.
    public var deviceName: String
    /// The device's kind as the classifier sees it (`encoder`, `jog-dial`, `touch`, …).
    public var kind: DeviceKind = .encoder
    /// The simulated device's profile id (nil for recordings).
    public var profileID: String? = nil

    /// How clients see the device that plays it: `simulated` for a scenario, `replay` for a recording.
    public var playbackKind: DeviceKind { profileID != nil ? .simulated : .replay }

    /// Loads a `.sim` scenario (run through the simulator) or a recording. A recording's times
    /// start at 0 (the first item's time), as the daemon and the replay both play them.
    public static func load(
        _ path: String, hardware: String? = nil, steps: StepsPerDetent = .four, channels: String? = nil
    ) throws(ToolError) -> InputTimeline {
        let hints = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: path)).all().map(\.hint)
        if path.hasSuffix(".sim") {
            return InputTimeline(simulation: try ScenarioRun.load(path, seed: nil, hardware: hardware).simulation, profiles: hints)
        }
        var inputs: [DeviceInput] = []
        var name = path
        var kind = DeviceKind.encoder
        switch try ReplayInput.load(path, channels: channels) {
        case .quadrature(let trace, let logName, let marks):
            name = logName ?? name
            inputs = DeviceReplay.inputs(from: trace, stepsPerDetent: steps, rest: nil, kernelEvents: !path.hasSuffix(".vcd"), marks: marks)
        case .evdev(let recording):
            let replay = DeviceReplay.inputs(from: recording, profiles: hints)
            guard replay.classification.knob != nil || !replay.classification.buttons.isEmpty else {
                throw ToolError("\(path) has nothing Flywheel can replay: \(replay.classification.reason)")
            }
            name = recording.name ?? name
            kind = replay.classification.kind
            inputs = replay.inputs
        }
        let start = inputs.first?.timeNanoseconds ?? 0
        let items = inputs.map { ($0.timeNanoseconds - start, $0.action) }
        return InputTimeline(items: items, endNanoseconds: items.last?.0 ?? 0, deviceName: name, kind: kind)
    }
}

extension InputTimeline {
    /// What the simulated device's backend reports for a simulation run, as the live backend
    /// would decode it (`profiles`: the hints the classifier knows besides the device's own).
    public init(simulation result: SimulationResult, profiles hints: [DeviceProfileHint] = []) {
        var inputs: [DeviceInput]
        if result.profile.report == .gpio {
            inputs = DeviceReplay.inputs(
                from: result.gpioTrace, stepsPerDetent: result.profile.stepsPerDetent, rest: result.profile.rest, kernelEvents: false)
            // The simulator's button already went through its debounce (gpio-keys or firmware).
            inputs += result.debouncedButtonEdges.map { DeviceInput(.button(code: $0.code, pressed: $0.pressed), at: $0.timeNanoseconds) }
        } else {
            let recording = EvemuRecording(profile: result.profile, events: result.inputEvents)
            inputs = DeviceReplay.inputs(from: recording, profiles: hints + [result.profile.hint], forced: result.profile.id).inputs
        }
        let items = inputs.enumerated().sorted { ($0.element.timeNanoseconds, $0.offset) < ($1.element.timeNanoseconds, $1.offset) }
            .map { ($0.element.timeNanoseconds, $0.element.action) }
        self.init(
            items: items, endNanoseconds: max(result.endNanoseconds, items.last?.0 ?? 0), deviceName: result.profile.name,
            kind: result.profile.kind, profileID: result.profile.id)
    }
}
