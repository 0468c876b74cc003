import FlywheelCore

extension Scenario {
    /// The farthest the knob may travel in a scenario read from a file, in detents, every command
    /// added up (a flick's coast in closed form from its speed and the friction): each detent is
    /// motion, contact edges and events the simulator keeps in memory. The examples and tests
    /// travel 2,000 detents at most.
    public static let maximumTravelDetents = 100_000
    /// The most contact edges a scenario read from a file may make its device produce, counted
    /// before anything is simulated: every quarter step crossed and every button action with
    /// the most bounce toggles the device allows, and chatter at twice its average rate. The
    /// examples and tests stay under 25,000.
    public static let maximumEdges = 500_000

    /// The limit as words for messages, such as `100,000 detents`.
    static func countText(_ count: Int, _ unit: String) -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " " + unit
    }

    /// Checks that simulating the scenario on `profile` with `mechanics` stays within
    /// ``maximumEdges``, before anything is simulated.
    /// - Throws: ``ScenarioError`` naming the file, the line that crosses the limit, and the limit.
    func checkEdges(profile: DeviceProfile, mechanics: MechanicsSettings) throws {
        let perChange = 1 + max(0, profile.bounce.toggles.upperBound)
        let chatterEdgesPerSecond = profile.chatter.map { 4 * $0.ratePerSecond } ?? 0
        func chatterEdges(_ nanoseconds: Nanoseconds) -> Double { chatterEdgesPerSecond * Double(nanoseconds) / 1e9 }
        var edges = chatterEdges(mechanics.leadInNanoseconds + mechanics.tailNanoseconds)
        let why = "up to \(perChange - 1) bounce toggles a change\(profile.chatter == nil ? "" : " and its chatter")"
        func fail(_ line: Int, _ shown: String) -> ScenarioError {
            ScenarioError(
                file: file, line: max(1, line),
                problem: "the scenario would make '\(profile.id)' (\(why)) produce more than the scenario limit of \(Self.countText(Self.maximumEdges, "contact edges")) with '\(shown)'")
        }
        guard edges <= Double(Self.maximumEdges) else { throw fail(deviceLine, "device \(device)") }
        for step in steps {
            let changes = step.gesture.contactChanges(stepsPerDetent: profile.stepsPerDetent.rawValue, mechanics)
            edges += Double(changes) * Double(perChange) + chatterEdges(step.gesture.plannedNanoseconds(mechanics))
            guard edges <= Double(Self.maximumEdges) else { throw fail(step.line, step.gesture.description) }
        }
    }
}

extension Simulation {
    /// Checks, before anything is simulated, that the scenario stays within
    /// ``Scenario/maximumEdges`` on this device: for scenarios read from files (generated ones,
    /// such as a long soak, may go further).
    /// - Throws: ``ScenarioError`` naming the file, the line that crosses the limit, and the limit.
    public func checkLimits() throws {
        try scenario.checkEdges(profile: profile, mechanics: mechanics)
    }
}
