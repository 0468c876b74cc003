// libFuzzer target: an evdev event stream through the live path flywheeld takes — the
// interpreter of one of the device kinds, then the Pipeline (routing, the controls' engines, their
// deadlines and frames) — with bounds on what comes out and on the state it leaves.
//
// Input: a header byte, then events of 11 bytes each.
//   header: bits 0–3 the device kind (`kinds`), bits 4–5 the route, bit 6 frames wanted, bit 7
//           scrub as the initial mode.
//   event:  a time step (2 bytes, in 100 µs; the top bit steps back, as a kernel timestamp may),
//           the type (of SYN, KEY, REL, ABS, MSC and an unknown one), the code (a byte: a known code
//           for the type when bit 7 of the next byte is clear, else raw), a flag byte (bit 0: the
//           code's high bit; bits 1–3: an extreme value instead of the 32-bit one), the value.
import FlywheelCore
import Glibc

let kinds: [(DeviceKind, EvdevClassification.Knob?)] = [
    (.jogDial, .rotary(.delta(code: RelCode.dial, countsPerDetent: 1))),
    (.jogDial, .rotary(.wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1))),
    (.jogDial, .rotary(.absoluteCounter(code: AbsCode.wheel, modulus: 1024, countsPerDetent: 4))),
    (.wheel, .rotary(.highResolutionWheel)),
    (.wheel, .rotary(.delta(code: RelCode.wheel, countsPerDetent: 1))),
    (.jogShuttle, .shuttle(jog: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1))),
    (.encoder, .absoluteEncoder(code: AbsCode.x, modulus: 24, countsPerDetent: 1)),
    (.encoder, .absoluteEncoder(code: AbsCode.wheel, modulus: 1, countsPerDetent: 4)),
    (.tabletRing, .tabletRing(code: AbsCode.wheel, modulus: 72, positionsPerDetent: 3)),
    (.tabletStrip, .tabletStrip(code: AbsCode.rx, range: 0...4096, detents: 24)),
    (.tabletStrip, .tabletStrip(code: AbsCode.rx, range: Int32.min...Int32.max, detents: 1000)),
    (.touch, .touch(.ring(centerX: 500, centerY: 500, minimumRadius: 50, detentsPerTurn: 24))),
    (.touch, .touch(.strip(alongX: true, from: 0, to: 4095, detents: 40))),
    (.touch, .touch(.strip(alongX: false, from: 100, to: 100, detents: 40))),
    (.buttons, nil),
    (.encoder, .rotary(.delta(code: RelCode.x, countsPerDetent: 4))),
]
let routes: [KnobRoute] = [.followMode, .pinned(.scrub), .pinned(.volume), .none]
let knownCodes: [[UInt16]] = [
    [SynCode.report, SynCode.mtReport, SynCode.dropped],
    [KeyCode.btn0, KeyCode.btn4, KeyCode.btn5, KeyCode.btn8, KeyCode.btnTouch],
    [RelCode.x, RelCode.y, RelCode.hwheel, RelCode.dial, RelCode.wheel, RelCode.wheelHiRes, RelCode.hwheelHiRes],
    [AbsCode.x, AbsCode.y, AbsCode.rx, AbsCode.throttle, AbsCode.wheel, AbsCode.misc, AbsCode.mtSlot, AbsCode.mtPositionX,
     AbsCode.mtPositionY, AbsCode.mtTrackingID],
    [0, 1, 4],
    [0, 7],
]
let extremes: [Int32] = [0, 1, -1, Int32.max, Int32.min, Int32.max - 1, Int32.min + 1]
/// The most messages one input may produce itself (a report's detents are coalesced: at most 64 a
/// report), besides what the time since the previous event brings.
let maximumMessagesPerInput = 64
/// Messages a second of motion may bring: frames (60 a second) and a coast's detents (at most
/// `feel.max_speed`, 60 a second), with room to spare.
let maximumMessagesPerSecond = 200.0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let header = bytes.first else { return 0 }
    let (kind, knob) = kinds[Int(header & 0x0F)]
    var interpreter = EvdevInterpreter(
        EvdevClassification(kind: kind, knob: knob, buttons: [KeyCode.btn0, KeyCode.btn4, KeyCode.btnTouch], profileID: nil, wanted: true, reason: "fuzz"))
    let device = InputDevice(name: "fuzz", path: "/dev/input/event99", kind: kind, route: routes[Int(header >> 4) & 0x03])
    var configuration = FlywheelConfiguration()
    configuration.modes = [.tempo, .scrub, .volume]
    configuration.initialMode = header & 0x80 == 0 ? .tempo : .scrub
    let pipeline = Pipeline(core: DaemonCore(configuration: configuration, scrubDurationSeconds: 214))
    pipeline.wantsFrames = header & 0x40 != 0
    var time: Nanoseconds = 1_000_000_000
    var pending = 0
    var offset = 1
    while offset + 11 <= size {
        let step = Nanoseconds(bytes[offset]) | Nanoseconds(bytes[offset + 1] & 0x7F) << 8
        time += (bytes[offset + 1] & 0x80 == 0 ? step : -step) * 100_000
        let typeIndex = Int(bytes[offset + 2] % 6)
        let type = typeIndex == 5 ? UInt16(0x11) : UInt16(typeIndex)  // 0x11: EV_LED, which no knob reads
        let flags = bytes[offset + 4]
        let code = flags & 0x80 == 0
            ? knownCodes[typeIndex][Int(bytes[offset + 3]) % knownCodes[typeIndex].count]
            : UInt16(bytes[offset + 3]) | UInt16(flags & 0x01) << 8
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + 5 + index]) << (8 * index) }
        let extreme = Int(flags >> 1) & 0x07
        let signed = extreme == 0 ? Int32(bitPattern: value) : extremes[extreme - 1]
        offset += 11
        let inputs = interpreter.feed(InputEvent(timeNanoseconds: time, type: type, code: code, value: signed))
        // A report's inputs come at its SYN_REPORT: at most one for each of its events, and one more.
        pending += 1
        check(inputs.count <= pending + 1, "\(inputs.count) inputs from \(pending) events")
        if !inputs.isEmpty { pending = 0 }
        // The timer's wake-ups up to the event (as the daemon's loop does), then the event.
        let elapsedSeconds = pipeline.time == .min ? 0 : Double(max(0, time - pipeline.time)) / 1e9
        pipeline.advance(to: max(time, pipeline.time))
        let due = pipeline.takeMessages()
        check(due.count <= maximumMessagesPerInput + Int(elapsedSeconds * maximumMessagesPerSecond), "\(due.count) messages in \(elapsedSeconds) s")
        pipeline.input(inputs, from: device)
        let out = pipeline.takeMessages()
        check(out.count <= maximumMessagesPerInput * (inputs.count + 1), "\(out.count) messages from \(inputs)")
        checkState(pipeline.core)
    }
    // Let everything come to rest (or run 5 s on: a shuttle held forever keeps scrubbing), with
    // no more messages than that time allows.
    let horizon = max(time, pipeline.time) + 5_000_000_000
    var resting = 0
    while let deadline = pipeline.nextDeadline, deadline <= horizon {
        pipeline.advance(to: deadline)
        resting += pipeline.takeMessages().count
        checkState(pipeline.core)
        check(resting <= maximumMessagesPerInput + Int(5 * maximumMessagesPerSecond), "\(resting) messages coming to rest")
    }
    return 0
}

/// A failed invariant: said on standard error (a release build's precondition says nothing), then a trap.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let line = Array("fuzz-EvdevStream: \(message())\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// Every control stays within its range whatever the device said.
func checkState(_ core: DaemonCore) {
    let state = core.currentState
    check((state.tempoDial.range.lowerBound * 10...state.tempoDial.range.upperBound * 10).contains(state.tempoBPM.tenths), "bpm \(state.tempoBPM) outside \(state.tempoDial.range)")
    check(state.scrubPositionSeconds.isFinite && state.scrubPositionSeconds >= 0 && state.scrubPositionSeconds <= state.scrubDurationSeconds,
        "scrub position \(state.scrubPositionSeconds) of \(state.scrubDurationSeconds)")
    check(state.volume >= 0 && state.volume <= state.volumeCap, "volume \(state.volume) over \(state.volumeCap)")
}
