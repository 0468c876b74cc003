import FlywheelCore
import FlywheelIO

/// The real backends as the device manager opens them: evdev nodes through libevdev, classified
/// by their capabilities and the `hardware/` profiles, and encoders on GPIO lines through libgpiod.
public struct DeviceBackends {
    /// The profiles known (from the `hardware/` search path).
    public let profiles: [DeviceProfile]
    /// The configured devices, for their regions, grabs and lights.
    public let entries: [FlywheelConfiguration.DeviceEntry]

    /// Where GPIO chips appear (`--gpio-dir`), where the Raspberry Pi header's chip is looked up.
    public let gpioDirectory: String

    /// Loads the profiles from the search path (`--hardware DIR` first).
    public init(hardware: String?, entries: [FlywheelConfiguration.DeviceEntry], gpioDirectory: String = "/dev") {
        self.profiles = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: nil)).all()
        self.entries = entries
        self.gpioDirectory = gpioDirectory
    }

    /// The profiles as the classifier reads them.
    public var hints: [DeviceProfileHint] { profiles.map(\.hint) }

    /// The configured devices as the manager wants them.
    public var wants: [DeviceManager.Want] {
        entries.compactMap { entry in
            let source: DeviceManager.Source
            if let path = entry.path {
                source = .evdev(path: path)
            } else if let gpio = entry.gpio {
                source = .gpio(chip: gpio.chip, a: gpio.a, b: gpio.b, button: gpio.button)
            } else {
                return nil  // a profile for the simulator only
            }
            var want = DeviceManager.Want(name: entry.name, source: source, profile: entry.profile, grab: entry.grab, route: entry.route)
            want.buttonActions = entry.buttonActions
            want.buttonGestures = entry.buttonGestures
            want.knobOptions = entry.knobOptions
            return want
        }
    }

    func entry(for want: DeviceManager.Want?) -> FlywheelConfiguration.DeviceEntry? {
        guard let want else { return nil }
        return entries.first { $0.name == want.name && $0.profile == want.profile }
    }

    /// Opens devices for the manager.
    public var opener: DeviceManager.Opener {
        let hints = self.hints
        let profiles = self.profiles
        return DeviceManager.Opener(
            evdev: { (path: String, want: DeviceManager.Want?) throws(SystemError) -> (any DeviceReader)? in
                let device = try EvdevDevice(path: path)
                let entry = self.entry(for: want)
                let classification = DeviceClassifier.classify(
                    device.description, profiles: hints, forced: want?.profile, touchRegion: entry?.region)
                guard want != nil || classification.wanted else {
                    device.close()
                    return nil
                }
                if want?.grab == true {
                    do throws(SystemError) { try device.grab() } catch {
                        device.close()
                        throw error
                    }
                }
                let reader = EvdevReader(device: device, classification: classification)
                reader.pulsesOnBeat = entry?.light == .beat
                return reader
            },
            gpio: { (want: DeviceManager.Want) throws(SystemError) -> any DeviceReader in
                guard case .gpio(let chip, let a, let b, let button) = want.source else {
                    throw SystemError(function: "gpiod_chip_open_lookup", subject: want.name, errno: 22)
                }
                let profile = profiles.first { $0.id == want.profile && $0.report == .gpio }
                let lines = try GPIOLines(chip: chip, a: a, b: b, button: button, directory: self.gpioDirectory)
                return try GPIOReader(
                    lines: lines, stepsPerDetent: profile?.stepsPerDetent ?? .four, rest: profile?.rest,
                    buttonDebounceNanoseconds: profile?.buttonDebounceNanoseconds ?? 5_000_000, profileID: want.profile)
            })
    }
}
