import FlywheelCore
import Testing

@Suite("Device classifier")
struct DeviceClassifierTests {
    static let powermate = DeviceProfileHint(
        id: "powermate", kind: .jogDial, vendor: 0x077d, product: 0x0410, report: .relativeDelta(code: RelCode.dial), countsPerDetent: 1)
    static let shuttle = DeviceProfileHint(
        id: "shuttlexpress", kind: .jogShuttle, vendor: 0x0b33, product: 0x0020, report: .shuttleCounter, countsPerDetent: 1)
    static let dial = DeviceProfileHint(
        id: "surface-dial", kind: .jogDial, vendor: 0x045e, product: 0x091b, report: .relativeDelta(code: RelCode.dial), countsPerDetent: 100)
    static let encoder = DeviceProfileHint(id: "rotary-encoder", kind: .encoder, report: .relativeDelta(code: RelCode.x), countsPerDetent: 1)
    static let profiles = [powermate, shuttle, dial, encoder]

    static func device(
        _ name: String, vendor: UInt16 = 0, product: UInt16 = 0, rel: [UInt16] = [], abs: [UInt16: ClosedRange<Int32>] = [:], keys: [UInt16] = []
    ) -> InputDeviceDescription {
        var codes: [UInt16: Set<UInt16>] = [:]
        if !rel.isEmpty { codes[EventType.rel] = Set(rel) }
        if !abs.isEmpty { codes[EventType.abs] = Set(abs.keys) }
        if !keys.isEmpty { codes[EventType.key] = Set(keys) }
        return InputDeviceDescription(name: name, vendor: vendor, product: product, codes: codes, absoluteRanges: abs)
    }

    @Test("USB ids pick the profile and its counts per detent")
    func byID() {
        let pm = DeviceClassifier.classify(Self.device("Griffin PowerMate", vendor: 0x077d, product: 0x0410, rel: [RelCode.dial], keys: [KeyCode.btn0]), profiles: Self.profiles)
        #expect(pm.profileID == "powermate" && pm.kind == .jogDial && pm.wanted)
        #expect(pm.knob == .rotary(.delta(code: RelCode.dial, countsPerDetent: 1)))
        let surface = DeviceClassifier.classify(Self.device("Surface Dial", vendor: 0x045e, product: 0x091b, rel: [RelCode.dial]), profiles: Self.profiles)
        #expect(surface.knob == .rotary(.delta(code: RelCode.dial, countsPerDetent: 100)))
        let xpress = DeviceClassifier.classify(
            Self.device("ShuttleXpress", vendor: 0x0b33, product: 0x0020, rel: [RelCode.dial, RelCode.wheel, RelCode.wheelHiRes], keys: [KeyCode.btn4]),
            profiles: Self.profiles)
        #expect(xpress.knob == .shuttle(jog: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1)))
        // A Contour device without a profile is still a shuttle: its REL_DIAL is a counter, never a delta.
        let pro = DeviceClassifier.classify(Self.device("ShuttlePRO v2", vendor: 0x0b33, product: 0x0030, rel: [RelCode.dial]), profiles: [])
        #expect(pro.kind == .jogShuttle && pro.profileID == nil)
    }

    @Test("capabilities classify what no profile names; mice and keyboards are left alone")
    func byCapabilities() {
        let unknownDial = DeviceClassifier.classify(Self.device("Some dial", vendor: 1, product: 2, rel: [RelCode.dial]), profiles: Self.profiles)
        #expect(unknownDial.kind == .jogDial && unknownDial.wanted)
        let mouse = DeviceClassifier.classify(
            Self.device("Mouse", rel: [RelCode.x, RelCode.y, RelCode.wheel, RelCode.wheelHiRes], keys: [0x110, 0x111]), profiles: Self.profiles)
        #expect(mouse.kind == .pointer && !mouse.wanted && mouse.knob == nil)
        let keyboard = DeviceClassifier.classify(Self.device("Keyboard", keys: [1, 2, 3, 30, 116]), profiles: Self.profiles)
        #expect(keyboard.kind == .keyboard && !keyboard.wanted)
        let power = DeviceClassifier.classify(Self.device("Power Button", keys: [116]), profiles: Self.profiles)
        #expect(!power.wanted)
        let button = DeviceClassifier.classify(Self.device("button@16", keys: [KeyCode.btn0]), profiles: Self.profiles)
        #expect(button.kind == .buttons && button.wanted && button.buttons == [KeyCode.btn0])
        let relative = DeviceClassifier.classify(Self.device("rotary@11", rel: [RelCode.x]), profiles: Self.profiles)
        #expect(relative.kind == .encoder && relative.profileID == "rotary-encoder")
        let absolute = DeviceClassifier.classify(Self.device("rotary@17", abs: [AbsCode.x: 0...24]), profiles: Self.profiles)
        #expect(absolute.knob == .absoluteEncoder(code: AbsCode.x, modulus: 24, countsPerDetent: 1))
        let ring = DeviceClassifier.classify(Self.device("Pad", abs: [AbsCode.wheel: 0...71, AbsCode.misc: 0...0], keys: [KeyCode.btn0]), profiles: [])
        #expect(ring.knob == .tabletRing(code: AbsCode.wheel, modulus: 72, positionsPerDetent: 3))
    }

    @Test("a touch panel is taken only with a configured region; a configured profile is forced")
    func touchAndForced() {
        let panel = Self.device("Touch", abs: [AbsCode.mtPositionX: 0...800, AbsCode.mtPositionY: 0...480, AbsCode.mtSlot: 0...9])
        let plain = DeviceClassifier.classify(panel, profiles: [])
        #expect(plain.kind == .touch && !plain.wanted)
        #expect(plain.knob == .touch(.ring(centerX: 400, centerY: 240, minimumRadius: 48, detentsPerTurn: 24)))
        let strip = TouchRegion.strip(alongX: true, from: 0, to: 800, detents: 40)
        let configured = DeviceClassifier.classify(panel, profiles: [], touchRegion: strip)
        #expect(configured.wanted && configured.knob == .touch(strip))
        // A dial from an unknown vendor configured as a Surface Dial uses that profile's resolution.
        let forced = DeviceClassifier.classify(Self.device("BT dial", vendor: 9, product: 9, rel: [RelCode.dial]), profiles: Self.profiles, forced: "surface-dial")
        #expect(forced.profileID == "surface-dial" && forced.knob == .rotary(.delta(code: RelCode.dial, countsPerDetent: 100)))
        // A forced profile the device cannot satisfy falls back to its capabilities.
        let mismatch = DeviceClassifier.classify(Self.device("rotary@11", rel: [RelCode.x]), profiles: Self.profiles, forced: "shuttlexpress")
        #expect(mismatch.kind == .encoder)
    }
}
