import FlywheelCore
import FlywheelSimulator

/// What a recording or a scenario does to a knob and its buttons, as a timeline: used by
/// `flywheel replay` in virtual time and by `flywheeld --simulate/--replay` in real time.
public struct InputTimeline: Sendable {
    /// One step of the timeline.
    public enum Item: Sendable, Hashable {
        /// The knob moved by some detents.
        case knob(detents: Double)
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
        let moves: [ReplayCommand.Move]
        switch try ReplayInput.load(path, channels: channels) {
        case .quadrature(let trace, _): moves = ReplayCommand.moves(from: trace, steps: steps, rest: nil)
        case .evdev(let recording): moves = try ReplayCommand.moves(from: recording, path: path)
        }
        let start = keepTimes ? 0 : moves.first?.timeNanoseconds ?? 0
        items = moves.map { ($0.timeNanoseconds - start, .knob(detents: $0.detents)) }
        return InputTimeline(items: items, endNanoseconds: items.last?.0 ?? 0, deviceName: name)
    }
}
