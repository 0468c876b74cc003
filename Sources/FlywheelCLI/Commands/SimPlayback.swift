import FlywheelTestDevices
import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import FlywheelFormats
import FlywheelSimulator

/// `flywheel sim SCENARIO --uinput` and `--gpio-sim NAME`: the simulator played in real time into the
/// real kernel — a uinput device with the profile's name and ids, or a gpio-sim chip whose A, B and
/// button lines follow the contact model, bounce included.
enum SimPlayback {
    /// The least time between two line changes written to gpio-sim.
    static let gpioSimSpacingNanoseconds: Nanoseconds = 300_000

    /// How long to wait for a reader to take the device before playing.
    static let readerTimeoutMilliseconds: Int32 = 10_000

    static func uinput(_ outcome: ScenarioRun, path: String, waitForReader: Bool, lingerSeconds: Double, reportsLED: Bool, console: Console) throws(ToolError) {
        let result = outcome.simulation
        guard result.profile.report != .gpio else {
            throw ToolError("\(path): device '\(result.profile.id)' is wired to GPIO and has no evdev events; use --gpio-sim NAME")
        }
        var devices: [(UInputDevice, [InputEvent])] = []
        do {
            var description = EvemuRecording(profile: result.profile, events: result.inputEvents).deviceDescription
            description.version = 1
            // The kernel's powermate driver declares the LED (EV_MSC/MSC_PULSELED), which a reader
            // writes to; uinput hands those writes back to the device (--report-led shows them).
            if result.profile.report == .powermateDial { description.codes[EventType.msc, default: []].insert(MscCode.pulseLED) }
            devices.append((try UInputDevice(description), result.inputEvents))
            // The kernel rotary-encoder's push button is a gpio-keys device of its own.
            if !result.gpioKeyEvents.isEmpty {
                let keys = InputDeviceDescription(
                    name: "gpio-keys", bus: 0x19, codes: [EventType.key: Set(result.gpioKeyEvents.filter { $0.type == EventType.key }.map(\.code))])
                devices.append((try UInputDevice(keys), result.gpioKeyEvents))
            }
        } catch {
            throw ToolError(error.description)
        }
        for (device, _) in devices { console.err("flywheel: \(result.profile.name) plays on \(device.devnode)\n") }
        if waitForReader {
            do {
                guard try devices[0].0.waitForReader(timeoutMilliseconds: readerTimeoutMilliseconds) else {
                    throw ToolError("no reader opened \(devices[0].0.devnode) within \(readerTimeoutMilliseconds / 1000) s; is flywheeld running? (--no-wait plays at once)")
                }
                // A reader sets itself up after opening (clock, grab): give it that moment.
                MonotonicClock.sleep(until: MonotonicClock.now() + 200_000_000)
            } catch let error as SystemError {
                throw ToolError(error)
            } catch let error as ToolError {
                throw error
            } catch {
                throw ToolError(error)
            }
        }
        // Both devices' events in one timeline, each written when its time comes.
        var timeline: [(Nanoseconds, Int, InputEvent)] = []
        for (index, entry) in devices.enumerated() { timeline += entry.1.map { ($0.timeNanoseconds, index, $0) } }
        timeline.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        let start = MonotonicClock.now()
        let origin = timeline.first?.0 ?? 0
        do {
            for (time, index, event) in timeline {
                try wait(until: start + time - origin, device: devices[0].0, reportsLED: reportsLED, console: console)
                try devices[index].0.write(event)
            }
            if lingerSeconds > 0 {
                try wait(until: MonotonicClock.now() + Nanoseconds(lingerSeconds * 1e9), device: devices[0].0, reportsLED: reportsLED, console: console)
            }
        } catch {
            throw ToolError(error)
        }
        for (device, _) in devices { device.destroy() }
    }

    /// Sleeps until `deadline`; with `reportsLED`, meanwhile prints each LED write the device receives
    /// as `led VALUE SECONDS` (MSC_PULSELED's value, its CLOCK_MONOTONIC time).
    static func wait(until deadline: Nanoseconds, device: UInputDevice, reportsLED: Bool, console: Console) throws(SystemError) {
        guard reportsLED else { return MonotonicClock.sleep(until: deadline) }
        var left = deadline - MonotonicClock.now()
        while left > 0 {
            defer { left = deadline - MonotonicClock.now() }
            for event in try device.feedback(timeoutMilliseconds: Int32((left + 999_999) / 1_000_000))
            where event.type == EventType.msc && event.code == MscCode.pulseLED {
                let seconds = event.timeNanoseconds / 1_000_000_000, micros = event.timeNanoseconds % 1_000_000_000 / 1000
                console.out("led \(event.value) \(seconds).\(String(repeating: "0", count: 6 - String(micros).count))\(micros)\n")
            }
        }
    }

    /// How a gpio-sim chip's lines are named and which carry the encoder.
    struct GPIOSimWiring {
        var lineNames: [String]
        /// The offsets of A, B and the button.
        var a: Int, b: Int, button: Int

        /// Three lines, `NAME-a`, `NAME-b` and `NAME-button`, at 0, 1 and 2.
        static func threeLines(_ name: String) -> GPIOSimWiring {
            GPIOSimWiring(lineNames: ["\(name)-a", "\(name)-b", "\(name)-button"], a: 0, b: 1, button: 2)
        }

        /// A Raspberry Pi header's first 28 lines, named `GPIO0` to `GPIO27` as the Pi's pin
        /// controllers name them, with the encoder on GPIO17, GPIO27 and GPIO22 (the wiring
        /// hardware/RASPBERRY-PI.md shows).
        static let piHeader = GPIOSimWiring(lineNames: (0..<28).map { "GPIO\($0)" }, a: 17, b: 27, button: 22)
    }

    static func gpioSim(
        _ outcome: ScenarioRun, path: String, name: String, wiring: GPIOSimWiring, waitForReader: Bool, lingerSeconds: Double, console: Console
    ) throws(ToolError) {
        let result = outcome.simulation
        guard result.profile.report == .gpio else {
            throw ToolError("\(path): device '\(result.profile.id)' reports through evdev, not GPIO lines; use --uinput")
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .usage("--gpio-sim takes a chip name of letters, digits, - and _, not '\(name)'")
        }
        let trace = result.gpioTrace
        let sim: GPIOSim
        do {
            var initialHigh = [Bool](repeating: true, count: wiring.lineNames.count)
            initialHigh[wiring.a] = trace.initial.a
            initialHigh[wiring.b] = trace.initial.b
            sim = try GPIOSim(name: name, lineNames: wiring.lineNames, initialHigh: initialHigh)
        } catch {
            throw ToolError("\(error.description) gpio-sim needs the gpio-sim module and configfs at /sys/kernel/config (sudo modprobe gpio-sim).")
        }
        defer { sim.remove() }
        console.err("flywheel: \(result.profile.name) plays on \(sim.chipName) (\(sim.deviceName)): A line \(wiring.a), B line \(wiring.b), button line \(wiring.button)\n")
        if waitForReader {
            // The consumer's request of line A (the daemon requests A, B and the button together).
            let deadline = MonotonicClock.now() + Nanoseconds(readerTimeoutMilliseconds) * 1_000_000
            while !GPIOLines.isRequested(chip: sim.chipName, offset: UInt32(wiring.a)) {
                guard MonotonicClock.now() < deadline else {
                    throw ToolError("no consumer requested \(sim.chipName) line \(wiring.a) within \(readerTimeoutMilliseconds / 1000) s; is flywheeld running? (--no-wait plays at once)")
                }
                MonotonicClock.sleep(until: MonotonicClock.now() + 10_000_000)
            }
            // A consumer's request (with its bias) can leave a line at gpio-sim's default for a moment;
            // let its requests finish, then pull every line back to the scenario's starting level.
            MonotonicClock.sleep(until: MonotonicClock.now() + 100_000_000)
            do {
                for (offset, high) in [(wiring.a, trace.initial.a), (wiring.b, trace.initial.b), (wiring.button, true)] { try sim.set(offset, high: high) }
            } catch {
                throw ToolError(error)
            }
            MonotonicClock.sleep(until: MonotonicClock.now() + 100_000_000)
        }
        // Contact edges (bounce included) and the raw button contact (pull-up: pressed is low).
        var timeline = trace.edges.map { ($0.timeNanoseconds, $0.line == .a ? wiring.a : wiring.b, $0.level) }
        timeline += result.buttonEdges.map { ($0.timeNanoseconds, wiring.button, !$0.pressed) }
        timeline.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        let start = MonotonicClock.now()
        let origin = timeline.first?.0 ?? 0
        var lag: Nanoseconds = 0
        var previous: Nanoseconds = .min
        do {
            for (time, line, high) in timeline {
                // gpio-sim raises its interrupts through irq_work: toggles closer together than the
                // kernel handles them merge into one event. Keep writes at least this far apart,
                // shifting the rest of the script later; the order of every contact change is kept.
                let due = max(start + time - origin + lag, previous + Self.gpioSimSpacingNanoseconds)
                lag = due - (start + time - origin)
                MonotonicClock.sleep(until: due)
                previous = MonotonicClock.now()
                try sim.set(line, high: high)
            }
        } catch {
            throw ToolError(error)
        }
        if lingerSeconds > 0 { MonotonicClock.sleep(until: MonotonicClock.now() + Nanoseconds(lingerSeconds * 1e9)) }
    }
}
