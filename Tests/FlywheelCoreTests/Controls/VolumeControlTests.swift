import Testing
@testable import FlywheelCore

@Suite("Volume control: the tempo's dial machinery over 0…cap")
struct VolumeControlTests {
    static let ms: Nanoseconds = 1_000_000

    static func volumes(_ events: [ControlEvent], _ phase: DialPhase) -> [Int] {
        events.compactMap { if case .volume(let volume, phase, _) = $0 { return volume } else { return nil } }
    }

    @Test("the dial: 0, step, 2·step, … and the cap last; cap and step clamped")
    func dial() {
        #expect(VolumeDial(cap: 10, step: 3).values == [0, 3, 6, 9, 10])
        #expect(VolumeDial().values.count == 51 && VolumeDial().values.last == 100)
        #expect(VolumeDial(cap: 400, step: 0).cap == 100 && VolumeDial(cap: 400, step: 0).step == 1)
    }

    @Test("slow detents move the volume a step each, settle, and stop at the cap")
    func detents() {
        var volume = VolumeControl(dial: VolumeDial(cap: 40, step: 4), volume: 30)
        var events: [ControlEvent] = []
        for i in 0..<5 { events += volume.move(by: 1, at: Nanoseconds(i) * 300 * Self.ms) }
        while let next = volume.nextDeadline { events += volume.advance(to: next) }
        #expect(Self.volumes(events, .moved) == [32, 36, 40])  // 30 starts at 28 (a tie goes to the lower step), then the cap
        #expect(Self.volumes(events, .began).count >= 1)
        #expect(Self.volumes(events, .settled).last == 40 && volume.volume == 40)
        #expect(String(decoding: ServerMessage(ControlEvent.volume(volume: 40, phase: .settled, timeNanoseconds: 0)).bytesWithoutSeq, as: UTF8.self)
                == #"{"class":"volume","volume":40,"phase":"settled","time":0.000000000}"# + "\n")
    }

    @Test("the daemon core: a knob pinned to volume, set/get in the protocol, the cap refused past")
    func core() throws {
        let config = try FlywheelConfiguration.parse(
            Array("{ controls: { volume: { cap: 80, start: 20, step: 5 }, mode: { segments: ['volume', 'tempo'] } } }".utf8), file: "f.json5")
        var core = DaemonCore(configuration: config)
        #expect(core.volume.volume == 20 && core.mode.active == .volume)
        let turned = core.knob(by: 1, at: 0, route: .pinned(.volume))
        #expect(turned.map(\.messageClass).contains(.volume) && core.volume.volume == 25)
        let tempoBefore = core.tempo.bpm
        _ = core.knob(by: 1, at: 2_000 * Self.ms)  // follows the mode: volume
        #expect(core.volume.volume == 30 && core.tempo.bpm == tempoBefore)

        let set = core.handle(try ClientCommand.parse(Array(#"{"cmd":"set","control":"volume","volume":61}"#.utf8)), at: 3_000 * Self.ms)
        #expect(core.volume.volume == 60)  // the nearest step
        #expect(String(decoding: set.broadcast[0].bytesWithoutSeq, as: UTF8.self).hasPrefix(#"{"class":"volume","volume":60,"phase":"set""#))
        let state = String(decoding: set.reply.bytesWithoutSeq, as: UTF8.self)
        #expect(state.contains(#""volume":{"volume":60,"cap":80,"step":5,"bounds":"rubber"}"#))
        let refused = core.handle(.setVolume(81), at: 4_000 * Self.ms)
        #expect(refused.reply.messageClass == .error && refused.broadcast.isEmpty && core.volume.volume == 60)
        #expect(String(decoding: refused.reply.bytesWithoutSeq, as: UTF8.self).contains(#""volume\" must be within 0–80, not 81."#))
        #expect(throws: ProtocolError(.missingField, "\"set\" for volume needs \"volume\" (0–100).")) {
            try ClientCommand.parse(Array(#"{"cmd":"set","control":"volume"}"#.utf8))
        }
        #expect(core.hello(version: "0", devices: [], at: 0).suffix.count > 0)
        #expect(String(decoding: core.hello(version: "0", devices: [], at: 0).bytesWithoutSeq, as: UTF8.self)
                .contains(#""controls":["tempo","scrub","volume","mode"]"#))
    }

    @Test("configuration: a device pinned to volume, hold-volume, and bad volume keys named")
    func configuration() throws {
        let config = try FlywheelConfiguration.parse(
            Array("{ controls: { buttons: { BTN_1: 'hold-volume' } }, devices: [ { profile: 'powermate', control: 'volume' } ] }".utf8), file: "f.json5")
        #expect(config.devices[0].route == .pinned(.volume) && config.buttonActions == [KeyCode.btn0 + 1: .hold(.volume)])
        #expect(config.volumeDial == VolumeDial() && config.volume == 30)
        #expect(throws: FileLineError(file: "f.json5", line: 1, problem: "key 'controls.volume.start' must be from 0 to 50, got 60")) {
            try FlywheelConfiguration.parse(Array("{ controls: { volume: { cap: 50, start: 60 } } }".utf8), file: "f.json5")
        }
    }
}
