import FlywheelCore
import Testing

/// Each device's own knob settings and button gestures, in scripted hands through the pipeline.
@Suite("Hands: per-device options")
struct DeviceOptionsHandsTests {
    /// One ec11 (or `profile`) knob on the tempo with `options`: the BPM it ends on.
    static func tempo(_ script: String, seed: UInt64, options: KnobOptions, profile: DeviceProfile? = nil) throws -> Int {
        var device = Hands.knob("/dev/input/event1")
        device.knobOptions = options
        let run = try Hands.run([Hands.Hand(script: script, profile: try profile ?? Hands.profile("ec11"), seed: seed, device: device)])
        return try #require(DeviceHandsTests.tempo(run))
    }

    @Test("invert: the same turn moves the tempo the other way", arguments: 1...4)
    func invert(seed: UInt64) throws {
        let script = "turn +5 at 4/s\nhold 1s\n"
        #expect(try Self.tempo(script, seed: seed, options: KnobOptions()) == 125)
        #expect(try Self.tempo(script, seed: seed, options: KnobOptions(invert: true)) == 115)
    }

    @Test("inertia and acceleration off: a flick, a slow turn and a quick turn back end exactly on the detents turned", arguments: 1...6)
    func inertiaOff(seed: UInt64) throws {
        let off = KnobOptions(inertia: false, acceleration: .off)
        let flick = "turn +10 at 40/s\nhold 2s\n"
        #expect(try Self.tempo(flick, seed: seed, options: KnobOptions()) > 130, "seed \(seed): with inertia the flick coasts on")
        #expect(try Self.tempo(flick, seed: seed, options: off) == 130)
        #expect(try Self.tempo("turn +5 at 4/s\nturn -3 at 30/s\nhold 1s\n", seed: seed, options: off) == 122)
        #expect(try Self.tempo("turn -12 at 60/s\nhold 2s\n", seed: seed, options: off) == 108)
    }

    @Test("inertia off on a bouncy one-step encoder: back and forth ends where it began", arguments: 1...6)
    func inertiaOffBouncy(seed: UInt64) throws {
        let script = "turn +3 at 4/s\nhold 1s\nturn -3 at 4/s\nhold 1s\nturn +6 at 30/s\nhold 1s\n"
        #expect(try Self.tempo(script, seed: seed, options: KnobOptions(inertia: false, acceleration: .off), profile: Hands.oneStepEncoder()) == 126)
    }

    @Test("a coarse and a fine knob on one tempo: four detents of the fine one make one step, none lost", arguments: 1...4)
    func coarseAndFine(seed: UInt64) throws {
        let ec11 = try Hands.profile("ec11")
        var coarse = Hands.knob("/dev/input/event1")
        coarse.knobOptions = KnobOptions(inertia: false)
        var fine = Hands.knob("/dev/input/event2")
        fine.knobOptions = KnobOptions(detentsPerStep: 4, inertia: false)
        let run = try Hands.run([
            Hands.Hand(script: "turn +3 at 4/s\nhold 2s\n", profile: ec11, seed: seed, device: coarse),
            // Nine detents: two steps and one towards the next; three more make the third.
            Hands.Hand(script: "hold 0.2s\nturn +9 at 6/s\nhold 1s\nturn +3 at 6/s\nhold 1s\n", profile: ec11, seed: seed + 100, device: fine),
        ])
        #expect(DeviceHandsTests.tempo(run) == 126, "seed \(seed)")
        let moved = run.messages("tempo", phase: "moved").count
        #expect(moved == 6, "seed \(seed): \(moved) steps")
    }

    @Test("a device's long and double presses: a tap waits out the double-press time, a long press and a double press do their own actions")
    func buttonGestures() throws {
        let ec11 = try Hands.profile("ec11")
        var gestures = Hands.knob("/dev/input/event1")
        gestures.buttonActions = [256: ButtonAction.none]
        gestures.buttonGestures = [256: ButtonGestures(long: .mode, double: ButtonAction.none)]
        // A knob that follows the mode (one pinned to a control leaves the mode alone).
        var plain = Hands.knob("/dev/input/event2")
        plain.route = .followMode
        let run = try Hands.run(
            [
                // A tap, a long press, a double press.
                Hands.Hand(
                    script: "press\nhold 100ms\nrelease\nhold 1s\npress\nhold 800ms\nrelease\nhold 1s\npress\nhold 80ms\nrelease\nhold 120ms\npress\nhold 80ms\nrelease\nhold 1s\n",
                    profile: ec11, seed: 1, device: gestures),
                // The other knob's button, unconfigured: a tap advances the mode at once.
                Hands.Hand(script: "hold 5s\npress\nhold 100ms\nrelease\nhold 1s\n", profile: ec11, seed: 2, device: plain),
            ], modes: [.tempo, .scrub])
        let actions = run.messages("button").compactMap { $0["action"]?.stringValue }.filter { $0 != "press" && $0 != "release" }
        #expect(actions == ["tap", "long-press", "double-press", "tap"])
        let buttons = run.messages("button")
        let firstRelease = try #require(buttons.first { $0["action"]?.stringValue == "release" }?["time"]?.doubleValue)
        let firstTap = try #require(buttons.first { $0["action"]?.stringValue == "tap" }?["time"]?.doubleValue)
        #expect(abs(firstTap - firstRelease - 0.3) < 1e-6, "the tap is told when the double-press time has passed")
        // The mode changes twice: the long press (its `long: mode`) and the other knob's tap; the
        // first device's tap and double press do nothing (`none`).
        let modes = run.messages("mode").compactMap { $0["mode"]?.stringValue }
        #expect(modes == ["scrub", "tempo"])
        let longPress = try #require(buttons.first { $0["action"]?.stringValue == "long-press" }?["time"]?.doubleValue)
        #expect(run.messages("mode").first?["time"]?.doubleValue == longPress)
    }
}
