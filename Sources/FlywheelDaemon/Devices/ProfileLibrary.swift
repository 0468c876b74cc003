import FlywheelCore
import FlywheelIO

/// Finds device profiles (`ID.profile`) in the `hardware/` folders Flywheel knows.
public struct ProfileLibrary: Sendable {
    /// Folders searched in order.
    public let directories: [String]

    /// A library searching `directories` in order.
    public init(directories: [String]) { self.directories = directories }

    /// The search path: `--hardware DIR`, `$FLYWHEEL_HARDWARE`, the `hardware/` folder a scenario
    /// sits in (or above), the folders found from the program's own location (an installed or unpacked
    /// package, the checkout the tool was built in), then the installed copies.
    public static func searchPath(explicit: String?, scenarioPath: String?) -> [String] {
        var directories: [String] = []
        if let explicit { directories.append(explicit) }
        if let environment = Environment.value("FLYWHEEL_HARDWARE") { directories.append(environment) }
        if let scenarioPath {
            let folder = scenarioPath.contains("/") ? String(scenarioPath[..<scenarioPath.lastIndex(of: "/")!]) : "."
            directories += [folder, folder + "/..", folder + "/../hardware"]
        }
        directories += besideExecutable()
        directories += ["hardware", "/usr/local/share/flywheel/hardware", "/usr/share/flywheel/hardware"]
        return directories
    }

    /// Every profile found, the first of each id in search order; unreadable files are skipped.
    public func all() -> [DeviceProfile] {
        var seen: Set<String> = []
        var profiles: [DeviceProfile] = []
        for directory in directories {
            for name in (try? FileSystem.listDirectory(directory)) ?? [] where name.hasSuffix(".profile") {
                let id = String(name.dropLast(8))
                guard !seen.contains(id), let profile = try? profile(id) else { continue }
                seen.insert(id)
                profiles.append(profile)
            }
        }
        return profiles
    }

    /// Loads the profile `id`.
    public func profile(_ id: String) throws(ToolError) -> DeviceProfile {
        for directory in directories {
            let path = directory + "/" + id + ".profile"
            guard FileSystem.exists(path) else { continue }
            do {
                let bytes = try FileSystem.readFile(path)
                return try DeviceProfile.parse(String(decoding: bytes, as: UTF8.self), file: path)
            } catch let error as SystemError {
                throw ToolError(error)
            } catch {
                throw ToolError(error)
            }
        }
        throw ToolError("no device profile '\(id).profile' in \(directories.joined(separator: ", ")); give its folder with --hardware DIR")
    }
}
