import Testing

@testable import FlywheelCore

/// The pipeline in virtual time: each step happens at its own time whenever the caller gets to
/// it, so how often it is woken changes nothing.
@Suite("Pipeline")
struct PipelineTests {
    static let device = InputDevice(name: "knob", path: "test", kind: .encoder, route: .followMode)

    /// Ten detents at 40/s, then a let-go: the knob coasts.
    static let flick: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)] = (0..<10).map {
        (Nanoseconds($0) * 25_000_000, .knob(detents: 1))
    }

    static func playing(frames: Double = 60) -> Pipeline {
        var core = DaemonCore(framesPerSecond: frames)
        core.framesPerSecond = frames
        let pipeline = Pipeline(core: core)
        pipeline.wantsFrames = frames > 0
        pipeline.play(Playback(items: flick, endNanoseconds: 0, device: device, loops: false, start: 1_000_000_000))
        return pipeline
    }

    static func text(_ messages: [ServerMessage]) -> [String] { messages.map { String(decoding: $0.bytesWithoutSeq, as: UTF8.self) } }

    @Test("woken at every deadline or once a millisecond, the messages are the same")
    func wakeupsDoNotMatter() {
        let exact = Self.playing()
        let expected = exact.runToEnd()
        let polled = Self.playing()
        var messages: [ServerMessage] = []
        var now: Nanoseconds = 1_000_000_000
        while polled.nextDeadline != nil {
            now += 1_000_000
            messages += polled.advanced(to: now)
        }
        #expect(expected.count > 20)
        #expect(Self.text(messages) == Self.text(expected))
    }

    @Test("an advance returns the next deadline, as asking afterwards gives it (with frames, without, and woken late or early)")
    func advanceReturnsTheDeadline() {
        for frames in [0.0, 60] {
            for step: Nanoseconds in [0, 1_000_000, 7_000_000, 40_000_000] {
                let pipeline = Self.playing(frames: frames)
                var now: Nanoseconds = 1_000_000_000, wakes = 0
                while let due = pipeline.nextDeadline {
                    // Woken at the deadline (step 0) or on a grid that misses it either way.
                    now = step == 0 ? due : max(now + step, now + 1)
                    let returned = pipeline.advance(to: now)
                    #expect(returned == pipeline.nextDeadline, "frames \(frames), step \(step), at \(now)")
                    wakes += 1
                }
                #expect(wakes > 10 && pipeline.outbox.count > 20)
            }
        }
    }

    @Test("frames lie on a grid of the frame period from the first motion, and stop at rest")
    func frameGrid() {
        let pipeline = Self.playing(frames: 50)
        let frames = pipeline.runToEnd().filter { $0.messageClass == .frame }
        #expect(frames.count > 5)
        let times = Self.text(frames).compactMap { line -> Nanoseconds? in
            guard let range = line.range(of: "\"time\":") else { return nil }
            let seconds = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            let parts = seconds.split(separator: ".")
            return Nanoseconds(parts[0])! * 1_000_000_000 + Nanoseconds(parts[1])!
        }
        #expect(times.count == frames.count)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b - a == 20_000_000) }
        #expect(pipeline.nextDeadline == nil)
    }

    @Test("no frames when nobody wants them, and nothing is due at rest")
    func noFramesUnwanted() {
        let pipeline = Self.playing()
        pipeline.wantsFrames = false
        let messages = pipeline.runToEnd()
        #expect(!messages.contains { $0.messageClass == .frame })
        #expect(messages.contains { $0.messageClass == .tempo })
        #expect(pipeline.nextDeadline == nil)
    }

    @Test("a device routed nowhere moves no control; its buttons and gaps still arrive")
    func routeNone() {
        let pipeline = Pipeline(core: DaemonCore())
        let buttons = InputDevice(name: "keys", path: "keys", kind: .buttons, route: .none)
        let messages = pipeline.fed(
            [DeviceInput(.knob(detents: 3), at: 10), DeviceInput(.button(code: 256, pressed: true), at: 20), DeviceInput(.gap(reason: "lost"), at: 30)],
            from: buttons)
        #expect(messages.map(\.messageClass) == [.button, .gap])
        #expect(pipeline.core.tempo.bpm == 120)
    }

    @Test("input times never go back: a late kernel timestamp is taken at the pipeline's time")
    func monotonicTime() {
        let pipeline = Pipeline(core: DaemonCore())
        pipeline.input([DeviceInput(.knob(detents: 1), at: 5_000_000_000)], from: Self.device)
        pipeline.input([DeviceInput(.knob(detents: 1), at: 4_000_000_000)], from: Self.device)
        #expect(pipeline.time == 5_000_000_000)
    }
}

@Suite("Playback")
struct PlaybackTests {
    @Test("a loop starts again at its end; a zero-length timeline does not loop")
    func loops() {
        let device = InputDevice(name: "d", path: "p", kind: .replay)
        var looping = Playback(items: [(0, .knob(detents: 1)), (100, .knob(detents: 1))], endNanoseconds: 200, device: device, loops: true, start: 1000)
        var times: [Nanoseconds] = []
        while times.count < 5, let due = looping.nextDeadline {
            if let input = looping.next(dueBy: due) { times.append(input.timeNanoseconds) }
        }
        #expect(times == [1000, 1100, 1200, 1300, 1400])
        let single = Playback(items: [(0, .knob(detents: 1))], endNanoseconds: 0, device: device, loops: true, start: 0)
        #expect(!single.loops)
    }
}

/// Buttons per device: a device's own `buttons` come before `controls.buttons`.
@Suite("Pipeline buttons per device")
struct PipelineButtonTests {
    static func tap(_ pipeline: Pipeline, _ device: InputDevice, at t: Nanoseconds) -> [MessageClass] {
        pipeline.fed([DeviceInput(.button(code: KeyCode.btn0, pressed: true), at: t), DeviceInput(.button(code: KeyCode.btn0, pressed: false), at: t + 100_000_000)], from: device)
            .map(\.messageClass)
    }

    @Test("a button a bridge uses (action none) is reported, its tap too, but does not switch the mode; another device's BTN_0 still does")
    func perDevice() {
        let pipeline = Pipeline(core: DaemonCore())
        let jog = InputDevice(name: "jog", path: "/dev/input/event3", kind: .jogDial, buttonActions: [KeyCode.btn0: ButtonAction.none])
        let knob = InputDevice(name: "knob", path: "gpiochip0", kind: .encoder)
        // press, release, tap: the tap is what a bridge (flywheel mpd's play-pause) acts on.
        #expect(Self.tap(pipeline, jog, at: 1_000_000_000) == [.button, .button, .button])
        #expect(pipeline.core.mode.active == .tempo)
        #expect(Self.tap(pipeline, knob, at: 2_000_000_000) == [.button, .button, .button, .mode])
        #expect(pipeline.core.mode.active == .scrub)
    }

    @Test("a knob pinned to a control does not switch the mode with its button unless told to; one that follows the mode does")
    func pinnedKnobKeepsTheMode() {
        let pipeline = Pipeline(core: DaemonCore())
        // A PowerMate pinned to the tempo: its press is reported (a bridge may act on it), the mode stays.
        let pinned = InputDevice(name: "tempo-knob", path: "/dev/input/event4", kind: .encoder, route: .pinned(.tempo))
        #expect(Self.tap(pipeline, pinned, at: 1_000_000_000) == [.button, .button, .button])
        #expect(pipeline.core.mode.active == .tempo)
        // Told to in its own buttons, or in the global ones, it does.
        let told = InputDevice(name: "tempo-knob", path: "/dev/input/event4", kind: .encoder, route: .pinned(.tempo), buttonActions: [KeyCode.btn0: .mode])
        #expect(Self.tap(pipeline, told, at: 2_000_000_000) == [.button, .button, .button, .mode])
        var core = DaemonCore()
        core.buttonActions = [KeyCode.btn0: .mode]
        let global = Pipeline(core: core)
        #expect(Self.tap(global, pinned, at: 1_000_000_000) == [.button, .button, .button, .mode])
        // A buttons-only device and a knob that follows the mode switch it, as before.
        let keys = InputDevice(name: "keys", path: "keys", kind: .buttons, route: .none)
        #expect(Self.tap(pipeline, keys, at: 3_000_000_000).last == .mode)
        let follows = InputDevice(name: "jog", path: "/dev/input/event3", kind: .jogDial, route: .followMode)
        #expect(Self.tap(pipeline, follows, at: 4_000_000_000).last == .mode)
    }

    @Test("a device's own action outranks the global one")
    func outranks() {
        var core = DaemonCore()
        core.buttonActions = [KeyCode.btn0: .tap]
        let pipeline = Pipeline(core: core)
        let knob = InputDevice(name: "knob", path: "k", kind: .encoder, buttonActions: [KeyCode.btn0: .mode])
        #expect(Self.tap(pipeline, knob, at: 1_000_000_000).contains(.mode))
    }
}
