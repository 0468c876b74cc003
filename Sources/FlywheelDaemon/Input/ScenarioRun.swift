import FlywheelCore
import FlywheelIO
import FlywheelSimulator

/// A `.sim` scenario run through the firmware simulator with its device profile.
public struct ScenarioRun: Sendable {
    /// What the simulator produced.
    public var simulation: SimulationResult
    /// The scenario's `name`, if it gives one.
    public var scenarioName: String?
    /// The scenario's notes (comment lines at its top).
    public var scenarioNotes: String
    /// The scenario's true net detents.
    public var truthDetents: Int { simulation.truthDetents }

    /// Loads the scenario at `path`, finds its device's profile (`--hardware DIR` first) and runs it,
    /// once it is known to stay within the scenario limits on that device.
    public static func load(_ path: String, seed: UInt64?, hardware: String?) throws(ToolError) -> ScenarioRun {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path) } catch { throw ToolError(error) }
        let scenario: Scenario
        do { scenario = try Scenario.parse(String(decoding: bytes, as: UTF8.self), file: path) } catch {
            throw ToolError(error)
        }
        let library = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: path))
        let profile: DeviceProfile
        do { profile = try library.profile(scenario.device) } catch {
            // Named where the scenario names it: the file and the `device` line.
            throw ToolError(FileLineError(file: path, line: max(1, scenario.deviceLine), problem: "the device '\(scenario.device)' is unknown: \(error)").description)
        }
        do {
            let simulation = try Simulation(scenario: scenario, profile: profile, seed: seed)
            try simulation.checkLimits()
            return ScenarioRun(simulation: simulation.run(), scenarioName: scenario.name.isEmpty ? nil : scenario.name, scenarioNotes: scenario.notes)
        } catch {
            throw ToolError(error)
        }
    }
}
