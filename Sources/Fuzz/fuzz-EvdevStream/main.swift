// libFuzzer target: an evdev event stream through the live path — the interpreter of one of the
// knob kinds, the daemon core's controls (tempo and scrub, with their engines' coasts run out) —
// with a bound on what comes out. Bytes are read as events of 11 bytes: a time step (2 bytes, in
// 100 µs), type, code and a 32-bit value; the first byte picks the device kind and the mode.
import FlywheelCore

let kinds: [EvdevClassification.Knob] = [
    .rotary(.delta(code: RelCode.dial, countsPerDetent: 1)),
    .rotary(.wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1)),
    .rotary(.highResolutionWheel),
    .shuttle(jog: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1)),
    .absoluteEncoder(code: 0x00, modulus: 24, countsPerDetent: 1),
    .tabletRing(code: 0x08, modulus: 72, positionsPerDetent: 3),
    .tabletStrip(code: 0x03, range: 0...4096, detents: 24),
    .touch(.ring(centerX: 500, centerY: 500, minimumRadius: 50, detentsPerTurn: 24)),
]
/// The most messages one input may produce: 64 a report (the engine's jump limit) plus a coast.
let maximumMessagesPerEvent = 200

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    let knob = kinds[Int(selector) % kinds.count]
    var interpreter = EvdevInterpreter(
        EvdevClassification(kind: "fuzz", knob: knob, buttons: [0x100], profileID: nil, wanted: true, reason: "fuzz"))
    var configuration = FlywheelConfiguration()
    configuration.initialMode = selector & 0x80 == 0 ? "tempo" : "scrub"
    var core = DaemonCore(configuration: configuration, scrubDurationSeconds: 214)
    var time: Nanoseconds = 1_000_000_000
    var events = 0
    var messages = 0
    var offset = 1
    while offset + 11 <= size {
        let step = Nanoseconds(bytes[offset]) | Nanoseconds(bytes[offset + 1]) << 8
        time += step * 100_000
        let type = UInt16(bytes[offset + 2] % 5)  // SYN, KEY, REL, ABS, MSC
        let code = UInt16(bytes[offset + 3]) | UInt16(bytes[offset + 4] & 0x01) << 8
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + 5 + index]) << (8 * index) }
        offset += 11
        events += 1
        for input in interpreter.feed(InputEvent(timeNanoseconds: time, type: type, code: code, value: Int32(bitPattern: value))) {
            switch input.action {
            case .knob(let detents): messages += core.knob(by: detents, at: time).count
            case .touch(let detents): messages += core.knob(by: detents, at: time, touching: true).count
            case .touchDown(let position, let detents): messages += core.touchDown(at: position, spanning: detents, time: time).count
            case .lift: messages += core.lift(at: time).count
            case .button(let code, let pressed): messages += core.button(code, pressed: pressed, at: time).count
            case .shuttle(let position): messages += core.shuttle(position: position, at: time).count
            case .gap: messages += 1
            }
        }
        precondition(messages <= events * maximumMessagesPerEvent, "\(messages) messages from \(events) events")
    }
    // Let everything come to rest: a bounded number of deadlines, each in the future.
    var deadlines = 0
    while let deadline = core.nextDeadline, deadlines < 100_000 {
        time = max(time, deadline)
        messages += core.advance(to: time).count
        deadlines += 1
        if core.nextDeadline == deadline { break }  // a shuttle held forever keeps scrubbing
    }
    precondition(messages <= (events + 1) * maximumMessagesPerEvent + deadlines * 4, "\(messages) messages from \(events) events")
    return 0
}
