import FlywheelCore

/// A chatter setting in a scenario: off, or on with its own rate and pulse widths.
public enum ChatterOverride: Hashable, Sendable {
    /// No chatter, whatever the profile says.
    case off
    /// This chatter instead of the profile's.
    case on(ChatterSettings)
}

/// One command of a scenario with the line it came from.
public struct ScenarioStep: Hashable, Sendable {
    /// The gesture.
    public var gesture: Gesture
    /// 1-based line in the scenario file (0 when generated).
    public var line: Int

    /// Creates a step.
    public init(gesture: Gesture, line: Int) {
        self.gesture = gesture
        self.line = line
    }
}

/// A hand-motion script for one device, parsed from a `.sim` file
/// (see `Sources/FlywheelSimulator/FlywheelSimulator.docc/Scenarios.md`).
public struct Scenario: Hashable, Sendable {
    /// The file it came from (for messages).
    public var file: String
    /// `# name:` header.
    public var name: String
    /// `# notes:` header(s), joined with spaces.
    public var notes: String
    /// The profile id from the `device` line.
    public var device: String
    /// The line of the `device` line.
    public var deviceLine: Int
    /// `seed N`, if given.
    public var seed: UInt64?
    /// `bounce …`, overriding the profile's.
    public var bounce: BounceSettings?
    /// `chatter …`, overriding the profile's.
    public var chatter: ChatterOverride?
    /// `friction K` (per second), overriding the default.
    public var friction: Double?
    /// `counter N`: the ShuttleXpress counter's starting value, overriding the profile's.
    public var counterStart: Int?
    /// The commands in order.
    public var steps: [ScenarioStep]

    /// Creates a scenario.
    public init(
        file: String = "scenario", name: String = "", notes: String = "", device: String, deviceLine: Int = 0,
        seed: UInt64? = nil, bounce: BounceSettings? = nil, chatter: ChatterOverride? = nil,
        friction: Double? = nil, counterStart: Int? = nil, steps: [ScenarioStep] = []
    ) {
        self.file = file
        self.name = name
        self.notes = notes
        self.device = device
        self.deviceLine = deviceLine
        self.seed = seed
        self.bounce = bounce
        self.chatter = chatter
        self.friction = friction
        self.counterStart = counterStart
        self.steps = steps
    }

    /// The scenario in `.sim` form; ``parse(_:file:)`` reads it back to an equal scenario
    /// (apart from file and line numbers).
    public var text: String {
        var lines: [String] = []
        if !name.isEmpty { lines.append("# name: \(name)") }
        if !notes.isEmpty { lines.append("# notes: \(notes)") }
        lines.append("device \(device)")
        if let seed { lines.append("seed \(seed)") }
        if let bounce {
            lines.append(bounce == .none ? "bounce off" : "bounce \(bounce.text)")
        }
        switch chatter {
        case .none: break
        case .off?: lines.append("chatter off")
        case .on(let settings)?:
            lines.append(
                "chatter \(DecimalText.format(settings.ratePerSecond))/s width "
                    + "\(ValueText.durationText(settings.widthNanoseconds.lowerBound))..\(ValueText.durationText(settings.widthNanoseconds.upperBound))"
            )
        }
        if let friction { lines.append("friction \(DecimalText.format(friction))") }
        if let counterStart { lines.append("counter \(counterStart)") }
        for step in steps { lines.append(step.gesture.description) }
        return lines.joined(separator: "\n") + "\n"
    }
}
