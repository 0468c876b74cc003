import FlywheelCore
import FlywheelSimulator
import Foundation

/// Access to the project's `hardware/` folder (profiles and example scenarios) from the tests.
enum Fixtures {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of a file under the package root, such as `hardware/ec11.profile`.
    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// A profile from `hardware/<id>.profile`.
    static func profile(_ id: String) throws -> DeviceProfile {
        let path = "hardware/\(id).profile"
        return try DeviceProfile.parse(text(path), file: path)
    }

    /// An example scenario from `hardware/scenarios/<name>.sim`.
    static func scenario(_ name: String) throws -> Scenario {
        let path = "hardware/scenarios/\(name).sim"
        return try Scenario.parse(text(path), file: path)
    }

    /// The file names in a folder under the package root with an extension.
    static func files(in folder: String, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// The EC11 profile with another detent size (rest 11 suits 1, 2 and 4 steps).
    static func encoder(stepsPerDetent: StepsPerDetent, report: ReportKind = .gpio) throws -> DeviceProfile {
        var profile = try self.profile("ec11")
        profile.stepsPerDetent = stepsPerDetent
        profile.report = report
        if report.isKernelRotaryEncoder {
            profile.axis = EvdevNames.axis(named: report == .rotaryEncoderRelative ? "REL_X" : "ABS_X")
        }
        return profile
    }

    /// Runs a scenario written inline.
    static func run(_ text: String, profile: DeviceProfile, seed: UInt64? = nil) throws -> SimulationResult {
        let scenario = try Scenario.parse("device \(profile.id)\n" + text, file: "inline.sim")
        return try Simulation(scenario: scenario, profile: profile, seed: seed).run()
    }

    /// Decodes a trace with Flywheel's decoder, aligned to the profile's rest state.
    static func decode(_ trace: QuadratureTrace, _ profile: DeviceProfile) -> QuadratureDecoder {
        var decoder = QuadratureDecoder(stepsPerDetent: profile.stepsPerDetent, initial: trace.initial, rest: profile.rest)
        decoder.decode(trace.samples)
        return decoder
    }
}
