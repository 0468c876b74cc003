import FlywheelCore
import FlywheelIO

/// What `--check-config` finds beyond the file's own rules: everything starting would refuse.
public enum ConfigurationCheck {
    /// Problems with `configuration` (read from `file`) on this system, each a sentence naming the
    /// file and key: a socket group that does not exist, a device profile no `hardware/` folder
    /// holds. `groupExists` and `profileExists` are parameters so tests need not touch /etc/group.
    public static func problems(
        in configuration: FlywheelConfiguration, file: String,
        groupExists: (String) -> Bool = ConfigurationCheck.groupExists,
        profileExists: (String) -> Bool
    ) -> [String] {
        var problems: [String] = []
        if let group = configuration.socketGroup, !groupExists(group) {
            problems.append("\(file): key 'socket.group': the group '\(group)' does not exist on this system.")
        }
        for (index, device) in configuration.devices.enumerated() where !profileExists(device.profile) {
            problems.append("\(file): key 'devices[\(index)].profile': there is no device profile '\(device.profile)'.")
        }
        return problems
    }

    /// Whether the group `name` exists on this system.
    public static func groupExists(_ name: String) -> Bool { SystemGroups.id(named: name) != nil }

    /// The `--check-config` report for `file`: the sentence to print and whether it passed.
    public static func report(for file: ConfigurationFile, profiles: ProfileLibrary) -> (text: String, valid: Bool) {
        guard file.explicit || file.isPresent else {
            return ("\(file.path) does not exist; flywheeld would run with the defaults.\n", true)
        }
        let configuration: FlywheelConfiguration
        do { configuration = try file.load() } catch { return ("\(error)\n", false) }
        let found = problems(in: configuration, file: file.path, profileExists: { (try? profiles.profile($0)) != nil })
        guard found.isEmpty else { return (found.joined(separator: "\n") + "\n", false) }
        return ("\(file.path): the configuration is valid.\n", true)
    }
}
