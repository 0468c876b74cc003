/// The GPIO lines and evdev nodes the configuration's devices have taken so far: a line or a node
/// belongs to one device, and a second entry naming it is a mistake (two decoders would each see
/// half the edges, two readers of one node would both turn the knob).
struct DeviceClaims {
    /// A line as the kernel has it: its chip and its offset (or its name, where the name cannot be
    /// read as an offset).
    struct Line: Hashable {
        var chip: String
        var line: String
    }

    private var lines: [Line: (index: Int, name: String, role: String)] = [:]
    private var nodes: [String: (index: Int, name: String)] = [:]

    /// Takes `entry`'s lines and node for `devices[index]`; the key and the problem when one is
    /// another device's already (nothing is then taken).
    mutating func claim(_ entry: FlywheelConfiguration.DeviceEntry, index: Int) -> (key: String, problem: String)? {
        if let path = entry.path {
            if let owner = nodes[path] {
                return ("path", "names \(path), which devices[\(owner.index)] ('\(owner.name)') already reads: give each device one entry")
            }
            nodes[path] = (index, entry.name)
        }
        guard let gpio = entry.gpio else { return nil }
        let roles = [("a", gpio.a), ("b", gpio.b)] + (gpio.button.map { [("button", $0)] } ?? [])
        for (role, written) in roles {
            if let owner = lines[Self.line(written, on: gpio.chip)] {
                return ("gpio", "gives the line \(written) (\(role)), which devices[\(owner.index)] ('\(owner.name)') already uses (\(owner.role)): each line belongs to one device")
            }
        }
        for (role, written) in roles { lines[Self.line(written, on: gpio.chip)] = (index, entry.name, role) }
        return nil
    }

    /// The line `written` names on `chip`. On the Raspberry Pi's header every line is named for
    /// its offset (`GPIO17` is offset 17, on each Pi's header chip), so the two spellings are one
    /// line; a chip given as `gpiochip0`, `/dev/gpiochip0` or `0` is one chip.
    static func line(_ written: String, on chip: GPIOChipSelector) -> Line {
        switch chip {
        case .header:
            if written.hasPrefix("GPIO"), let offset = Int(written.dropFirst(4)), offset >= 0 { return Line(chip: "", line: String(offset)) }
            return Line(chip: "", line: written)
        case .named(let name):
            var chip = name.hasPrefix("/dev/") ? String(name.dropFirst(5)) : name
            if let number = Int(chip) { chip = "gpiochip\(number)" }
            return Line(chip: "chip " + chip, line: written)
        }
    }
}
