import FlywheelCore
import FlywheelIO

/// What `--check-config` warns about without refusing the file: devices that are not there now
/// (flywheeld waits for them, so they may come later) and entries that only a `--simulate`
/// scenario can use. Each warning names the file, the line and the key, and `flywheel devices`.
public enum ConfigurationWarnings {
    /// The warnings for `configuration`. `exists` says whether a device node is there; `chipExists`
    /// whether a GPIO chip named by name, path, number or label is; `headerExists` whether one of
    /// the Raspberry Pi header's chips is. (Parameters so tests need not touch /dev.)
    public static func warnings(
        in configuration: FlywheelConfiguration, exists: (String) -> Bool = FileSystem.exists,
        chipExists: (String) -> Bool = ConfigurationWarnings.chipExists, headerExists: () -> Bool = ConfigurationWarnings.headerExists
    ) -> [ConfigurationProblem] {
        var warnings = notices(in: configuration)
        for (index, device) in configuration.devices.enumerated() {
            let key = "devices[\(index)]"
            if let path = device.path, !exists(path) {
                warnings.append(.file(configuration, key: key + ".path",
                    "names \(path), which does not exist now: flywheeld will wait for it to appear (is it plugged in? `flywheel devices` lists what there is)"))
            } else if let gpio = device.gpio {
                switch gpio.chip {
                case .named(let chip) where !chipExists(chip):
                    warnings.append(.file(configuration, key: key + ".gpio",
                        "names the GPIO chip '\(chip)', which does not exist now: flywheeld will wait for it to appear (`flywheel devices` lists the chips there are)"))
                case .header where !headerExists():
                    warnings.append(.file(configuration, key: key + ".gpio",
                        "leaves out 'chip', so it means the Raspberry Pi header, and this machine has no header chip (one labelled \(GPIOChipSelector.headerLabels.joined(separator: ", "))): flywheeld will wait for one; on another board give 'chip' (`flywheel devices` lists the chips there are)"))
                default:
                    break
                }
            } else if device.path == nil {
                warnings.append(.file(configuration, key: key,
                    "gives neither 'path' nor 'gpio': flywheeld uses it only for a --simulate scenario of the profile '\(device.profile)'; give 'path' (an evdev node) or 'gpio' lines for a real device"))
            }
        }
        // In the file's order, as its mistakes are.
        return warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    /// The keys that work but should change (an old key's new name): flywheeld says these when it
    /// starts and reloads, not only `--check-config`.
    /// A socket every user may write to (`mode` with the others' write bit) is said here too: any
    /// local program could then turn the knob.
    public static func notices(in configuration: FlywheelConfiguration) -> [ConfigurationProblem] {
        var notices = configuration.notices.map { ConfigurationProblem.file(configuration, key: $0.key, $0.message) }
        if configuration.socketMode & 0o002 != 0 {
            let digits = String(configuration.socketMode, radix: 8)
            notices.append(.file(configuration, key: "socket.mode",
                "is \"\(String(repeating: "0", count: max(0, 4 - digits.count)) + digits)\": every user on this machine may connect and turn the knob for you; \"0660\" with 'group' lets only that group"))
        }
        return notices
    }

    /// Whether this machine has a Raspberry Pi header's chip (one of ``GPIOChipSelector/headerLabels``).
    public static func headerExists() -> Bool {
        GPIOChipSelector.headerIndex(labels: GPIOLines.chips().map(\.label)) != nil
    }

    /// Whether a chip given as a name (`gpiochip0`), a path, a number or a label is there now.
    public static func chipExists(_ chip: String) -> Bool {
        if chip.hasPrefix("/") { return FileSystem.exists(chip) }
        if let number = Int(chip) { return FileSystem.exists("/dev/gpiochip\(number)") }
        if FileSystem.exists("/dev/" + chip) { return true }
        return GPIOLines.chips().contains { $0.label == chip || $0.name == chip }
    }
}
