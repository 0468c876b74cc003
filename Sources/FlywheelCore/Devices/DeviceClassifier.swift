/// What a `hardware/` profile tells the classifier about a device: how to recognise it and how
/// many evdev counts make a detent. (The simulator's full profiles convert to these.)
public struct DeviceProfileHint: Sendable, Hashable {
    /// Report formats a profile can name.
    public enum Report: Sendable, Hashable {
        /// A signed delta on a relative axis (PowerMate, Surface Dial, kernel rotary-encoder relative).
        case relativeDelta(code: UInt16)
        /// The Contour jog counter on REL_DIAL plus the shuttle ring on REL_WHEEL.
        case shuttleCounter
        /// REL_WHEEL with REL_WHEEL_HI_RES.
        case highResolutionWheel
        /// The kernel rotary-encoder on an absolute axis.
        case absoluteAxis(code: UInt16)
        /// Raw GPIO edges (no evdev device).
        case gpio
    }

    /// The profile id (`powermate`).
    public var id: String
    /// Its kind (`jog-dial`, `jog-shuttle`, `encoder`, `wheel`).
    public var kind: DeviceKind
    /// USB vendor and product, when it is a USB device.
    public var vendor: UInt16?
    public var product: UInt16?
    /// The report format.
    public var report: Report
    /// Evdev counts per detent (1 for whole-detent reports).
    public var countsPerDetent: Int
    /// The button codes it has.
    public var buttons: [UInt16]

    /// Creates a hint.
    public init(id: String, kind: DeviceKind, vendor: UInt16? = nil, product: UInt16? = nil, report: Report, countsPerDetent: Int, buttons: [UInt16] = []) {
        self.id = id
        self.kind = kind
        self.vendor = vendor
        self.product = product
        self.report = report
        self.countsPerDetent = max(1, countsPerDetent)
        self.buttons = buttons
    }
}

/// What Flywheel makes of an evdev device: its kind, the knob it offers (if any), its buttons,
/// the profile it matched, and whether discovery takes it without being told to.
public struct EvdevClassification: Sendable, Hashable {
    /// How the device's rotation, ring or surface becomes knob motion.
    public enum Knob: Sendable, Hashable {
        /// Counts on one relative axis (deltas, a wrapping counter, or a high-resolution wheel).
        case rotary(RotaryReport)
        /// A Contour jog wheel (the REL_DIAL counter) inside a spring-loaded shuttle ring (REL_WHEEL −7…+7).
        case shuttle(jog: RotaryReport)
        /// The kernel rotary-encoder on an absolute axis: `modulus` positions, wrapping with rollover.
        case absoluteEncoder(code: UInt16, modulus: Int, countsPerDetent: Int)
        /// A tablet touch ring (ABS_WHEEL 0…71, ABS_MISC 0 on lift): `modulus` positions a turn.
        case tabletRing(code: UInt16, modulus: Int, positionsPerDetent: Double)
        /// A tablet touch strip (ABS_RX), linear over its range.
        case tabletStrip(code: UInt16, range: ClosedRange<Int32>, detents: Double)
        /// A touch panel; the region of it that is the knob.
        case touch(TouchRegion)
    }

    /// `jog-dial`, `jog-shuttle`, `wheel`, `encoder`, `tablet-ring`, `tablet-strip`, `touch`,
    /// `buttons`, or what Flywheel does not use: `pointer`, `keyboard`, `other`.
    public var kind: DeviceKind
    /// The knob, if the device has one.
    public var knob: Knob?
    /// Its buttons.
    public var buttons: [UInt16]
    /// The profile it matched.
    public var profileID: String?
    /// Whether discovery takes it when no device is configured.
    public var wanted: Bool
    /// One line on why, for `flywheel devices`.
    public var reason: String

    /// Creates a classification.
    public init(kind: DeviceKind, knob: Knob?, buttons: [UInt16], profileID: String?, wanted: Bool, reason: String) {
        self.kind = kind
        self.knob = knob
        self.buttons = buttons
        self.profileID = profileID
        self.wanted = wanted
        self.reason = reason
    }
}

/// Classifies evdev devices by their capabilities and the `hardware/` profiles.
public enum DeviceClassifier {
    /// Tablet rings: three positions a detent (24 detents a turn of 72 positions).
    package static let ringPositionsPerDetent = 3.0
    /// Tablet strips: 32 detents end to end.
    package static let stripDetents = 32.0

    /// Classifies `device`. `forced` is the profile a configuration names for it (used when the
    /// device can send what the profile needs); `touchRegion` replaces a touch panel's default ring.
    public static func classify(
        _ device: InputDeviceDescription, profiles: [DeviceProfileHint], forced: String? = nil, touchRegion: TouchRegion? = nil
    ) -> EvdevClassification {
        let rel = EventType.rel, abs = EventType.abs, key = EventType.key
        let keys = device.keys
        let smallButtons = keys.filter { (KeyCode.btn0...KeyCode.btn0 + 0x0f).contains($0) }

        let byID = profiles.first { $0.vendor != nil && $0.vendor == device.vendor && $0.product == device.product }
        let named = forced.flatMap { id in profiles.first { $0.id == id } }
        if let profile = named ?? byID, let knob = knob(for: profile, device) {
            let how = named != nil ? "configured as profile \(profile.id)" : "USB \(device.usbID) is profile \(profile.id)"
            return EvdevClassification(kind: profile.kind, knob: knob, buttons: keys, profileID: profile.id, wanted: true, reason: how)
        }

        if device.vendor == 0x0b33, device.has(rel, RelCode.dial) {
            return EvdevClassification(
                kind: .jogShuttle, knob: .shuttle(jog: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1)),
                buttons: keys, profileID: nil, wanted: true, reason: "a Contour device with a REL_DIAL jog counter")
        }
        if device.has(abs, AbsCode.wheel), device.has(abs, AbsCode.misc), let range = device.absoluteRanges[AbsCode.wheel], range.count > 1 {
            return EvdevClassification(
                kind: .tabletRing,
                knob: .tabletRing(code: AbsCode.wheel, modulus: Int(range.upperBound) - Int(range.lowerBound) + 1, positionsPerDetent: ringPositionsPerDetent),
                buttons: keys, profileID: nil, wanted: true, reason: "ABS_WHEEL \(range.lowerBound)…\(range.upperBound) with ABS_MISC lift")
        }
        if device.has(abs, AbsCode.rx), device.has(abs, AbsCode.misc), let range = device.absoluteRanges[AbsCode.rx], range.count > 1 {
            return EvdevClassification(
                kind: .tabletStrip, knob: .tabletStrip(code: AbsCode.rx, range: range, detents: stripDetents),
                buttons: keys, profileID: nil, wanted: true, reason: "ABS_RX \(range.lowerBound)…\(range.upperBound) with ABS_MISC lift")
        }
        let multiTouch = device.has(abs, AbsCode.mtPositionX) && device.has(abs, AbsCode.mtPositionY)
        let singleTouch = device.has(abs, AbsCode.x) && device.has(abs, AbsCode.y) && device.has(key, KeyCode.btnTouch)
        if multiTouch || singleTouch {
            let region = touchRegion ?? defaultRing(device)
            return EvdevClassification(
                kind: .touch, knob: region.map { .touch($0) }, buttons: keys.filter { $0 != KeyCode.btnTouch }, profileID: nil,
                wanted: touchRegion != nil,
                reason: multiTouch ? "multi-touch panel (taken when a region is configured)" : "single-touch panel (taken when a region is configured)")
        }
        let relCodes = device.codes[rel] ?? []
        if relCodes.contains(RelCode.x), relCodes.contains(RelCode.y), device.has(key, 0x110) {  // BTN_LEFT
            return EvdevClassification(kind: .pointer, knob: nil, buttons: [], profileID: nil, wanted: false, reason: "a mouse or touchpad")
        }
        if device.has(rel, RelCode.dial) {
            return EvdevClassification(
                kind: .jogDial, knob: .rotary(.delta(code: RelCode.dial, countsPerDetent: 1)), buttons: keys, profileID: nil,
                wanted: true, reason: "REL_DIAL as a signed delta, one count a detent (no profile matched)")
        }
        if device.has(rel, RelCode.wheelHiRes) || (relCodes == [RelCode.wheel]) {
            return EvdevClassification(
                kind: .wheel, knob: .rotary(.highResolutionWheel), buttons: keys, profileID: nil, wanted: true,
                reason: "REL_WHEEL with REL_WHEEL_HI_RES, 120 a detent")
        }
        let encoderHint = profiles.first { if case .relativeDelta = $0.report { return $0.vendor == nil } else { return false } }
        if relCodes.count == 1, keys.count == smallButtons.count, let code = relCodes.first {
            return EvdevClassification(
                kind: .encoder, knob: .rotary(.delta(code: code, countsPerDetent: encoderHint?.countsPerDetent ?? 1)), buttons: keys,
                profileID: encoderHint?.id, wanted: true, reason: "one relative axis and at most BTN_0…BTN_15: a kernel rotary-encoder")
        }
        let absCodes = device.codes[abs] ?? []
        // The kernel rotary-encoder in absolute mode reports 0…steps−1 and declares 0…steps (so the
        // modulus with rollover is max − min); a push key may share its node.
        if absCodes.count == 1, keys.count <= 2, let code = absCodes.first, let range = device.absoluteRanges[code], range.count > 2 {
            let absHint = profiles.first { if case .absoluteAxis = $0.report { return true } else { return false } }
            return EvdevClassification(
                kind: .encoder,
                knob: .absoluteEncoder(code: code, modulus: Int(range.upperBound) - Int(range.lowerBound), countsPerDetent: absHint?.countsPerDetent ?? 1),
                buttons: keys, profileID: absHint?.id, wanted: true,
                reason: "one absolute axis \(range.lowerBound)…\(range.upperBound)\(keys.isEmpty ? " and nothing else" : " and a push key"): a kernel rotary-encoder (absolute)")
        }
        if !keys.isEmpty, relCodes.isEmpty, absCodes.isEmpty {
            if !smallButtons.isEmpty, smallButtons.count == keys.count {
                return EvdevClassification(kind: .buttons, knob: nil, buttons: keys, profileID: nil, wanted: true, reason: "BTN_0…BTN_15 only (gpio-keys)")
            }
            return EvdevClassification(kind: .keyboard, knob: nil, buttons: keys, profileID: nil, wanted: false, reason: "keys; used only when configured")
        }
        return EvdevClassification(kind: .other, knob: nil, buttons: keys, profileID: nil, wanted: false, reason: "no knob Flywheel knows")
    }

    static func knob(for profile: DeviceProfileHint, _ device: InputDeviceDescription) -> EvdevClassification.Knob? {
        switch profile.report {
        case .relativeDelta(let code):
            guard device.has(EventType.rel, code) else { return nil }
            return .rotary(.delta(code: code, countsPerDetent: profile.countsPerDetent))
        case .shuttleCounter:
            guard device.has(EventType.rel, RelCode.dial) else { return nil }
            return .shuttle(jog: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: profile.countsPerDetent))
        case .highResolutionWheel:
            guard device.has(EventType.rel, RelCode.wheel) || device.has(EventType.rel, RelCode.wheelHiRes) else { return nil }
            return .rotary(.highResolutionWheel)
        case .absoluteAxis(let code):
            guard let range = device.absoluteRanges[code], range.count > 2 else { return nil }
            return .absoluteEncoder(code: code, modulus: Int(range.upperBound) - Int(range.lowerBound), countsPerDetent: profile.countsPerDetent)
        case .gpio:
            return nil
        }
    }

    /// A touch panel's default knob: a ring about the middle of its surface, 24 detents a turn,
    /// ignoring the central fifth (where the angle is unsteady).
    package static func defaultRing(_ device: InputDeviceDescription) -> TouchRegion? {
        let ranges = device.absoluteRanges
        guard let x = ranges[AbsCode.mtPositionX] ?? ranges[AbsCode.x], let y = ranges[AbsCode.mtPositionY] ?? ranges[AbsCode.y] else { return nil }
        let width = Double(x.upperBound) - Double(x.lowerBound), height = Double(y.upperBound) - Double(y.lowerBound)
        guard width > 0, height > 0 else { return nil }
        return .ring(
            centerX: Double(x.lowerBound) + width / 2, centerY: Double(y.lowerBound) + height / 2,
            minimumRadius: min(width, height) / 10, detentsPerTurn: 24)
    }
}
