import FlywheelCore
import FlywheelIO

/// What `--check-config` warns about without refusing the file: devices that are not there now
/// (flywheeld waits for them, so they may come later) and entries that only a `--simulate`
/// scenario can use. Each warning names the file, the line and the key, and `flywheel devices`.
public enum ConfigurationWarnings {
    /// The warnings for `configuration`. `exists` says whether a device node is there; `chipExists`
    /// whether a GPIO chip named by name, path, number or label is. (Parameters so tests need not
    /// touch /dev.) A `gpio` entry without a chip (the Raspberry Pi's header) is not warned about.
    public static func warnings(
        in configuration: FlywheelConfiguration, exists: (String) -> Bool = FileSystem.exists,
        chipExists: (String) -> Bool = ConfigurationWarnings.chipExists
    ) -> [ConfigurationProblem] {
        var warnings = notices(in: configuration)
        for (index, device) in configuration.devices.enumerated() {
            let key = "devices[\(index)]"
            if let path = device.path, !exists(path) {
                warnings.append(.file(configuration, key: key + ".path",
                    "names \(path), which does not exist now: flywheeld will wait for it to appear (is it plugged in? `flywheel devices` lists what there is)"))
            } else if let gpio = device.gpio {
                if case .named(let chip) = gpio.chip, !chipExists(chip) {
                    warnings.append(.file(configuration, key: key + ".gpio",
                        "names the GPIO chip '\(chip)', which does not exist now: flywheeld will wait for it to appear (`flywheel devices` lists the chips there are)"))
                }
            } else if device.path == nil {
                warnings.append(.file(configuration, key: key,
                    "gives neither 'path' nor 'gpio': flywheeld uses it only for a --simulate scenario of the profile '\(device.profile)'; give 'path' (an evdev node) or 'gpio' lines for a real device"))
            }
        }
        return warnings
    }

    /// The keys that work but should change (an old key's new name): flywheeld says these when it
    /// starts and reloads, not only `--check-config`.
    public static func notices(in configuration: FlywheelConfiguration) -> [ConfigurationProblem] {
        configuration.notices.map { .file(configuration, key: $0.key, $0.message) }
    }

    /// Whether a chip given as a name (`gpiochip0`), a path, a number or a label is there now.
    public static func chipExists(_ chip: String) -> Bool {
        if chip.hasPrefix("/") { return FileSystem.exists(chip) }
        if let number = Int(chip) { return FileSystem.exists("/dev/gpiochip\(number)") }
        if FileSystem.exists("/dev/" + chip) { return true }
        return GPIOLines.chips().contains { $0.label == chip || $0.name == chip }
    }
}
