/// How a device reports its rotary axis through evdev.
public enum RotaryReport: Sendable, Hashable {
    /// A signed delta per report on `code` (kernel `rotary-encoder` REL_X, PowerMate and Surface
    /// Dial REL_DIAL), `countsPerDetent` counts to a detent.
    case delta(code: UInt16, countsPerDetent: Int)
    /// An absolute counter on `code` that wraps at `modulus` (ShuttleXpress REL_DIAL, 0...255):
    /// consecutive values are unwrapped to the shortest signed difference.
    case wrappingCounter(code: UInt16, modulus: Int, countsPerDetent: Int)
    /// An absolute axis on `code` that wraps at `modulus` (the kernel `rotary-encoder` in absolute
    /// mode with rollover: it declares 0…steps and reports 0…steps−1, so the modulus is max − min).
    case absoluteCounter(code: UInt16, modulus: Int, countsPerDetent: Int)
    /// REL_WHEEL with REL_WHEEL_HI_RES (120 per detent): the high-resolution axis is used and
    /// REL_WHEEL is ignored when both are present, so no detent is counted twice.
    case highResolutionWheel
}

/// Turns a device's rotary evdev events into counts and detents, one `SYN_REPORT` frame at a time.
///
/// Partial detents (high-resolution wheels, fine counts) accumulate exactly in counts; a detent
/// fires each time the running count reaches a whole detent past the last reported one.
public struct RotaryEventDecoder: Sendable {
    /// The report format.
    public let report: RotaryReport
    /// Net counts so far.
    public private(set) var counts: Int = 0
    /// Net detents so far.
    public private(set) var detents: Int = 0
    /// Reports (frames with a rotary value) seen.
    public private(set) var reports: Int = 0

    var lastCounter: Int?
    var sawHighResolution = false
    var pendingWheel = 0
    var pendingHighResolution = 0

    /// Creates a decoder for a report format.
    public init(report: RotaryReport) { self.report = report }

    /// Counts per detent for this report format.
    public var countsPerDetent: Int {
        switch report {
        case .delta(_, let n), .wrappingCounter(_, _, let n), .absoluteCounter(_, _, let n): return max(1, n)
        case .highResolutionWheel: return 120
        }
    }

    /// Feeds one event; returns the net detents that fired (at a `SYN_REPORT` for frame-based
    /// formats, at once otherwise).
    public mutating func feed(_ event: InputEvent) -> Int {
        switch report {
        case .delta(let code, _):
            guard event.type == EventType.rel, event.code == code else { return 0 }
            reports += 1
            return add(Int(event.value))
        case .wrappingCounter(let code, let modulus, _), .absoluteCounter(let code, let modulus, _):
            let type = if case .absoluteCounter = report { EventType.abs } else { EventType.rel }
            guard event.type == type, event.code == code, modulus > 0 else { return 0 }
            let value = Int(event.value)
            defer { lastCounter = value }
            guard let last = lastCounter else { return 0 }  // the first report sets the reference
            var delta = (value - last) % modulus
            if delta > modulus / 2 { delta -= modulus }
            if delta < -modulus / 2 { delta += modulus }
            if delta != 0 { reports += 1 }
            return add(delta)
        case .highResolutionWheel:
            if event.type == EventType.rel, event.code == RelCode.wheelHiRes {
                sawHighResolution = true
                pendingHighResolution += Int(event.value)
            } else if event.type == EventType.rel, event.code == RelCode.wheel {
                pendingWheel += Int(event.value)
            } else if event.type == EventType.syn, event.code == SynCode.report {
                let counts = sawHighResolution ? pendingHighResolution : pendingWheel * 120
                pendingWheel = 0
                pendingHighResolution = 0
                if counts != 0 { reports += 1 }
                return add(counts)
            }
            return 0
        }
    }

    /// A counter's value known without a report (an absolute axis read after a resynchronisation):
    /// the next report counts from it.
    package mutating func setReference(_ value: Int) { lastCounter = value }

    /// Adds counts; a detent fires when the count reaches a whole detent beyond the last one
    /// reported in either direction, so a partial move and back fires nothing.
    mutating func add(_ delta: Int) -> Int {
        guard delta != 0 else { return 0 }
        counts += delta
        let n = countsPerDetent
        let before = detents
        // Closed form, not a step per detent: one report may carry 2³¹ counts.
        let floor = counts >= 0 ? counts / n : -((-counts + n - 1) / n)
        let ceiling = counts >= 0 ? (counts + n - 1) / n : -(-counts / n)
        if floor > detents { detents = floor } else if ceiling < detents { detents = ceiling }
        return detents - before
    }
}
