import Testing
@testable import FlywheelCore

@Suite("Mode switch")
struct ModeSwitchTests {
    @Test("a tap advances and wraps")
    func tap() {
        var modes = ModeSwitch(segments: ["tempo", "scrub", "volume"])
        #expect(modes.active == "tempo")
        #expect(modes.tap() == "scrub")
        #expect(modes.tap() == "volume")
        #expect(modes.tap() == "tempo")
    }

    @Test("a partial pan snaps to the nearest segment")
    func pan() {
        var modes = ModeSwitch(segments: ["tempo", "scrub"])
        modes.pan(to: 0.4)
        #expect(modes.endPan() == nil)
        #expect(modes.active == "tempo")
        modes.pan(to: 0.6)
        #expect(modes.endPan() == "scrub")
        modes.pan(to: 7)
        #expect(modes.offset == 1)
        #expect(modes.select("tempo") && !modes.select("nope"))
    }
}
