import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import FlywheelFormats

/// `flywheel devices`: the input devices and GPIO chips Flywheel can use, and what it makes of each.
enum DevicesCommand {
    static let usage = """
        flywheel devices [--input-dir DIR] [--gpio-dir DIR] [--hardware DIR] [--json]
            List the evdev devices and GPIO chips and what Flywheel would make of each: kind, profile,
            whether flywheeld takes it when no device is configured, and why (or why it cannot open it).
            --json prints a JSON array of them instead ([] when there are none). --input-dir and --gpio-dir
            look elsewhere than /dev/input and /dev; --hardware DIR adds a folder of device profiles.
            Example: flywheel devices --json
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "devices")
        let inputDirectory = try args.option("input-dir") ?? "/dev/input"
        let gpioDirectory = try args.option("gpio-dir") ?? "/dev"
        let hardware = try args.option("hardware")
        let json = args.flag("json")
        _ = try args.positionals("no files", count: 0...0)
        let hints = ProfileLibrary(directories: ProfileLibrary.searchPath(explicit: hardware, scenarioPath: nil)).all().map(\.hint)

        var rows: [JSONValue] = []
        var text = ""
        var listing: [String] = []
        var unreadable: String?
        do { listing = try FileSystem.listDirectory(inputDirectory) } catch { unreadable = error.description }
        let names = listing.filter { $0.hasPrefix("event") }.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        for name in names {
            let path = inputDirectory + "/" + name
            do {
                let device = try EvdevDevice(path: path)
                defer { device.close() }
                let description = device.description
                let found = DeviceClassifier.classify(description, profiles: hints)
                rows.append(.object([
                    ("path", .string(path)), ("name", .string(description.name)), ("id", .string(description.usbID)),
                    ("kind", .string(found.kind.rawValue)), ("profile", found.profileID.map(JSONValue.string) ?? .null),
                    ("taken", .bool(found.wanted)), ("reason", .string(found.reason)),
                ]))
                text += "\(path)\t\(description.name)\n    \(found.kind)"
                    + (found.profileID.map { ", profile \($0)" } ?? "") + ", id \(description.usbID)"
                    + (found.wanted ? ", taken by discovery" : ", not taken unless configured") + ": \(found.reason)\n"
            } catch {
                rows.append(.object([("path", .string(path)), ("error", .string(error.description))]))
                text += "\(path)\n    \(error.description)\n"
            }
        }
        if let unreadable {
            // No devices: `[]` with --json as the help says, the folder's reason on standard error.
            if json { console.err("flywheel: no input devices: \(unreadable)\n") }
            text += "No input devices: \(unreadable)\n"
        } else if names.isEmpty {
            text += "No input devices in \(inputDirectory).\n"
        }
        let chips = GPIOLines.chips(in: gpioDirectory)
        let header = GPIOLines.header(among: chips)
        for chip in chips {
            let isHeader = chip == header
            rows.append(.object([
                ("path", .string(chip.path)), ("name", .string(chip.name)), ("label", .string(chip.label)), ("lines", .int(chip.lines)),
                ("kind", .string("gpiochip")), ("header", .bool(isHeader)),
            ]))
            text += "\(chip.path)\t\(chip.label)\n    GPIO chip, \(chip.lines) lines"
                + (isHeader
                    ? ", the Raspberry Pi header: devices[].gpio takes it when `chip` is left out (lines by offset or name, such as GPIO17)\n"
                    : ": an encoder's A, B and button lines are configured as devices[].gpio with chip: \"\(chip.name)\"\n")
        }
        if chips.isEmpty {
            text += FileSystem.exists(gpioDirectory)
                ? "No GPIO chips in \(gpioDirectory) that can be opened.\n" : "No GPIO chips: the folder \(gpioDirectory) does not exist.\n"
        }
        if json {
            // One JSON array, a device a line: `[]` when there is nothing.
            var out = "["
            for (index, row) in rows.enumerated() {
                out += index == 0 ? "\n" : ",\n"
                row.encode(into: &out)
            }
            console.out(out + (rows.isEmpty ? "]\n" : "\n]\n"))
        } else {
            console.out(text)
        }
    }
}
