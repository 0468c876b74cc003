import FlywheelCore
import FlywheelReplay
import FlywheelSimulator

/// What a recording or a scenario does to a knob and its buttons, as a timeline: used by
/// `flywheel replay` in virtual time and by `flywheeld --simulate/--replay` in real time.
public struct InputTimeline: Sendable {
    /// One step of the timeline.
    public enum Item: Sendable, Hashable {
        /// The knob moved by some detents.
        case knob(detents: Double)
        /// A touch region moved by some detents (a finger is on it).
        case touch(detents: Double)
        /// The finger lifted.
        case lift
        /// A button changed.
        case button(code: UInt16, pressed: Bool)
    }

    /// Items with times in nanoseconds from the start of the recording, in order.
    public var items: [(timeNanoseconds: Nanoseconds, item: Item)]
    /// When the recording ends.
    public var endNanoseconds: Nanoseconds
    /// A short description of the source device.
    public var deviceName: String
    /// The simulated device's profile id (nil for recordings).
    public var profileID: String? = nil

    /// Loads a `.sim` scenario (run through the simulator) or a recording. A recording's times
    /// start at 0 unless `keepTimes` (the replay prints them as recorded).
    public static func load(
        _ path: String, hardware: String? = nil, steps: StepsPerDetent = .four, channels: String? = nil, keepTimes: Bool = false
    ) throws(ToolError) -> InputTimeline {
        var items: [(Nanoseconds, Item)] = []
        var name = path
        if path.hasSuffix(".sim") {
            let outcome = try SimCommand.simulate(path, seed: nil, hardware: hardware)
            let result = outcome.simulation
            name = result.profile.name
            for edge in result.debouncedButtonEdges { items.append((edge.timeNanoseconds, .button(code: edge.code, pressed: edge.pressed))) }
            let moves: [ReplayCommand.Move]
            if result.profile.report == .gpio {
                moves = ReplayCommand.moves(from: result.gpioTrace, steps: result.profile.stepsPerDetent, rest: result.profile.rest)
            } else {
                moves = try ReplayCommand.moves(from: SimCommand.evemu(for: result.profile, events: result.inputEvents), path: path)
            }
            items += moves.map { ($0.timeNanoseconds, .knob(detents: $0.detents)) }
            items.sort { $0.0 < $1.0 }
            return InputTimeline(
                items: items, endNanoseconds: max(result.endNanoseconds, items.last?.0 ?? 0), deviceName: name, profileID: result.profile.id)
        }
        switch try ReplayInput.load(path, channels: channels) {
        case .quadrature(let trace, _):
            items = ReplayCommand.moves(from: trace, steps: steps, rest: nil).map { ($0.timeNanoseconds, .knob(detents: $0.detents)) }
        case .evdev(let recording):
            if RotaryReport.infer(from: recording) == nil, let region = touchRegion(for: recording) {
                name = recording.name ?? name
                items = touchItems(recording, region: region)
            } else {
                items = try ReplayCommand.moves(from: recording, path: path).map { ($0.timeNanoseconds, .knob(detents: $0.detents)) }
            }
        }
        let start = keepTimes ? 0 : items.first?.0 ?? 0
        items = items.map { ($0.0 - start, $0.1) }
        return InputTimeline(items: items, endNanoseconds: items.last?.0 ?? 0, deviceName: name)
    }

    /// A touch panel's default knob: a ring about the middle of its surface, 24 detents a turn,
    /// ignoring the central fifth (where the angle is unsteady).
    static func touchRegion(for recording: EvemuRecording) -> TouchRegion? {
        let axes = recording.absoluteAxes
        guard let x = axes.first(where: { $0.code == AbsCode.mtPositionX }) ?? axes.first(where: { $0.code == AbsCode.x }),
            let y = axes.first(where: { $0.code == AbsCode.mtPositionY }) ?? axes.first(where: { $0.code == AbsCode.y })
        else { return nil }
        let width = Double(x.maximum - x.minimum), height = Double(y.maximum - y.minimum)
        return .ring(
            centerX: Double(x.minimum) + width / 2, centerY: Double(y.minimum) + height / 2,
            minimumRadius: min(width, height) / 10, detentsPerTurn: 24)
    }

    static func touchItems(_ recording: EvemuRecording, region: TouchRegion) -> [(Nanoseconds, Item)] {
        var tracker = TouchTracker()
        var knob = TouchKnob(region: region)
        var items: [(Nanoseconds, Item)] = []
        for event in recording.events {
            guard let frame = tracker.feed(event), let motion = knob.feed(frame) else { continue }
            switch motion {
            case .move(let detents, let time): items.append((time, .touch(detents: detents)))
            case .lift(let time): items.append((time, .lift))
            }
        }
        return items
    }
}
