import FlywheelCore
import Foundation

/// Access to the project's `hardware/` folder (device profiles) from the tests.
enum Fixtures {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of a file under the package root, such as `hardware/ec11.profile`.
    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// A profile from `hardware/<id>.profile`.
    static func profile(_ id: String) throws -> DeviceProfile {
        let path = "hardware/\(id).profile"
        return try DeviceProfile.parse(text(path), file: path)
    }

    /// The file names in a folder under the package root with an extension.
    static func files(in folder: String, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(suffix) }.sorted()
    }
}
