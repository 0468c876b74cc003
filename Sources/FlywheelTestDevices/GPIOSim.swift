import FlywheelCore
import FlywheelIO
import Glibc

/// A simulated GPIO chip made through the kernel's gpio-sim (configfs): the simulator's real-kernel
/// output for encoders on GPIO. Each line's level is set by its simulated pull, so a consumer that
/// requested the line sees real edges with kernel timestamps.
public final class GPIOSim {
    /// The configfs item, e.g. /sys/kernel/config/gpio-sim/flywheel.
    public let item: String
    /// The platform device (`gpio-sim.0`) and the chip (`gpiochip0`).
    public let deviceName: String
    public let chipName: String
    let lines: Int
    var removed = false

    /// Where gpio-sim's configfs lives.
    public static let configfs = "/sys/kernel/config/gpio-sim"

    /// Creates a live chip `name` with `lineNames.count` lines named as given, every line pulled
    /// to `initialHigh[i]` before anything can request it.
    public init(name: String, lineNames: [String], initialHigh: [Bool]) throws(SystemError) {
        item = Self.configfs + "/" + name
        lines = lineNames.count
        try FileSystem.makeDirectory(item)
        do {
            try FileSystem.makeDirectory(item + "/bank0")
            try FileSystem.writeAttribute(item + "/bank0/num_lines", String(lineNames.count))
            try FileSystem.writeAttribute(item + "/bank0/label", name)
            for (offset, lineName) in lineNames.enumerated() {
                try FileSystem.makeDirectory(item + "/bank0/line\(offset)")
                try FileSystem.writeAttribute(item + "/bank0/line\(offset)/name", lineName)
            }
            try FileSystem.writeAttribute(item + "/live", "1")
            deviceName = try FileSystem.readAttribute(item + "/dev_name")
            chipName = try FileSystem.readAttribute(item + "/bank0/chip_name")
        } catch {
            Self.teardown(item, lines: lineNames.count)
            throw error
        }
        for (offset, high) in initialHigh.enumerated() { try set(offset, high: high) }
    }

    deinit { remove() }

    /// Pulls line `offset` up (high) or down.
    public func set(_ offset: Int, high: Bool) throws(SystemError) {
        try FileSystem.writeAttribute("/sys/devices/platform/\(deviceName)/\(chipName)/sim_gpio\(offset)/pull", high ? "pull-up" : "pull-down")
    }

    /// Takes the chip down and removes its configfs item (a consumer sees its lines go away).
    public func remove() {
        guard !removed else { return }
        removed = true
        Self.teardown(item, lines: lines)
    }

    static func teardown(_ item: String, lines: Int) {
        try? FileSystem.writeAttribute(item + "/live", "0")
        for offset in 0..<lines { try? FileSystem.removeDirectory(item + "/bank0/line\(offset)") }
        try? FileSystem.removeDirectory(item + "/bank0")
        try? FileSystem.removeDirectory(item)
    }
}
