// libFuzzer target: the evemu reader, then rotary and touch decoding of whatever it accepts.
import FlywheelCore
import FlywheelFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let recording = try? EvemuRecording.parse(bytes, file: "fuzz.evemu") else { return 0 }
    var rotary = RotaryEventDecoder(report: .wrappingCounter(code: RelCode.dial, modulus: 256, countsPerDetent: 1))
    var wheel = RotaryEventDecoder(report: .highResolutionWheel)
    var tracker = TouchTracker()
    var knob = TouchKnob(region: .ring(centerX: 500, centerY: 500, minimumRadius: 10, detentsPerTurn: 24))
    for event in recording.events {
        _ = rotary.feed(event)
        _ = wheel.feed(event)
        if let frame = tracker.feed(event) { _ = knob.feed(frame) }
    }
    _ = recording.text()
    return 0
}
