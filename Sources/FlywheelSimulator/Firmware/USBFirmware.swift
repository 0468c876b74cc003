import FlywheelCore

/// One USB HID input report as the device's firmware sent it, before the kernel turned it into
/// evdev events.
public struct USBReport: Hashable, Sendable {
    /// When the host received it (the poll), in nanoseconds.
    public var timeNanoseconds: Nanoseconds
    /// The rotary field: the PowerMate's signed delta, the ShuttleXpress's counter (0...255), or
    /// a wheel's count delta.
    public var rotary: Int
    /// The buttons held down, by key code, in the profile's order.
    public var pressed: [UInt16]
}

/// USB devices: at every poll (the profile's interval) the firmware sends a report if anything
/// changed since the last one, and the kernel driver turns it into evdev events.
///
/// - `powermate-dial`: the report carries the count change since the last report, capped at
///   ±`max_delta_per_report`; the rest is carried over to the next poll. Events: `EV_KEY`
///   (when a button changed), `REL_DIAL` delta (when non-zero), `SYN_REPORT`.
/// - `shuttle-counter`: the report carries the jog counter, `(counter_start + counts) mod 256`.
///   Events: `REL_DIAL` with the counter's value, then any changed `EV_KEY`, then `SYN_REPORT`;
///   every report repeats the counter. The input core drops relative events whose value is 0, so
///   a counter at 0 is never seen (a report carrying only it sends nothing at all).
/// - `hires-wheel`: the report carries the count change (capped if `max_delta_per_report` is
///   set); the kernel converts it to 120ths of a detent, accumulates, and sends `REL_WHEEL` for
///   each whole detent accumulated (rounding toward zero) and `REL_WHEEL_HI_RES` with the
///   report's 120ths. Events: changed `EV_KEY`, `REL_WHEEL` (non-zero), `REL_WHEEL_HI_RES`
///   (non-zero), `SYN_REPORT`.
///
/// Buttons are debounced by the firmware and sampled at each poll.
public enum USBFirmware {
    /// The host-side delay between a poll and the kernel's timestamp of its events.
    static let hostLatency: ClosedRange<Nanoseconds> = 40_000...200_000

    /// Reports and evdev events for a USB profile. `debouncedButtons` are the firmware's
    /// debounced button changes; polling runs until `end` and until every count has been sent.
    public static func run(
        profile: DeviceProfile, contacts: QuadratureTrace, debouncedButtons: [ButtonEdge], end: Nanoseconds,
        random: inout SeededGenerator
    ) -> (reports: [USBReport], events: [InputEvent]) {
        guard profile.report.isUSB, let interval = profile.usbPollIntervalNanoseconds else { return ([], []) }
        var counter = FirmwareCounter(trace: contacts, profile: profile)
        var device = DeviceState(profile: profile)
        let lastButton = debouncedButtons.last?.timeNanoseconds ?? 0
        var buttonIndex = 0
        var held: Set<UInt16> = []
        var reports: [USBReport] = []
        var events: [InputEvent] = []
        var time = random.uniform(0...(interval - 1))
        while true {
            counter.advance(through: time)
            while buttonIndex < debouncedButtons.count, debouncedButtons[buttonIndex].timeNanoseconds <= time {
                let edge = debouncedButtons[buttonIndex]
                if edge.pressed { held.insert(edge.code) } else { held.remove(edge.code) }
                buttonIndex += 1
            }
            let pressed = profile.buttons.filter { held.contains($0) }
            let stamp = time + random.uniform(hostLatency)
            if let report = device.poll(counts: counter.counts, pressed: pressed, at: time) {
                reports.append(report)
                events.append(contentsOf: device.events(for: report, at: stamp))
            }
            if time >= end, time >= lastButton, device.isDrained(counts: counter.counts) { break }
            time += interval
        }
        return (reports, events)
    }

    /// The firmware's and the kernel driver's state between polls.
    struct DeviceState {
        let profile: DeviceProfile
        let maxDelta: Int
        var sentCounts = 0
        var lastCounter: Int
        var lastPressed: [UInt16] = []
        var wheelAccumulated = 0

        init(profile: DeviceProfile) {
            self.profile = profile
            self.maxDelta = profile.maxDeltaPerReport ?? Int(Int32.max)
            self.lastCounter = profile.counterStart
        }

        func isDrained(counts: Int) -> Bool {
            profile.report == .shuttleCounter || counts == sentCounts
        }

        /// The report the firmware sends at this poll, if anything changed.
        mutating func poll(counts: Int, pressed: [UInt16], at time: Nanoseconds) -> USBReport? {
            let buttonsChanged = pressed != lastPressed
            switch profile.report {
            case .shuttleCounter:
                let counter = ((profile.counterStart + counts) % 256 + 256) % 256
                guard counter != lastCounter || buttonsChanged else { return nil }
                lastCounter = counter
                sentCounts = counts
                return USBReport(timeNanoseconds: time, rotary: counter, pressed: pressed)
            default:
                let delta = min(max(counts - sentCounts, -maxDelta), maxDelta)
                guard delta != 0 || buttonsChanged else { return nil }
                sentCounts += delta
                return USBReport(timeNanoseconds: time, rotary: delta, pressed: pressed)
            }
        }

        /// What the kernel driver makes of a report.
        mutating func events(for report: USBReport, at time: Nanoseconds) -> [InputEvent] {
            let axis = profile.axis ?? EvdevAxis(type: EventType.rel, code: RelCode.dial, name: "REL_DIAL")
            var keys: [InputEvent] = []
            for code in profile.buttons where report.pressed.contains(code) != lastPressed.contains(code) {
                let down = report.pressed.contains(code)
                keys.append(InputEvent(timeNanoseconds: time, type: EventType.key, code: code, value: down ? 1 : 0))
            }
            lastPressed = report.pressed
            var frame: [InputEvent] = []
            func rel(_ code: UInt16, _ value: Int) {
                if value != 0 {
                    frame.append(InputEvent(timeNanoseconds: time, type: EventType.rel, code: code, value: Int32(value)))
                }
            }
            switch profile.report {
            case .powermateDial:
                frame = keys
                rel(axis.code, report.rotary)
            case .shuttleCounter:
                rel(axis.code, report.rotary)
                frame.append(contentsOf: keys)
            case .hiresWheel:
                frame = keys
                let perCount = 120 / max(1, profile.countsPerDetent ?? 1)
                let hiRes = report.rotary * perCount
                wheelAccumulated += hiRes
                let whole = wheelAccumulated / 120
                wheelAccumulated -= whole * 120
                rel(axis.code, whole)
                rel(axis.code == RelCode.hwheel ? RelCode.hwheelHiRes : RelCode.wheelHiRes, hiRes)
            case .gpio, .rotaryEncoderRelative, .rotaryEncoderAbsolute:
                break
            }
            if !frame.isEmpty { frame.append(.synReport(at: time)) }
            return frame
        }
    }
}
