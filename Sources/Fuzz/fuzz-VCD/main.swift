// libFuzzer target: the VCD reader (first two channels), then the decoder on what it accepts.
import FlywheelCore
import FlywheelFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let names = try? VCD.channels(in: bytes, file: "fuzz.vcd"), names.count >= 2,
        let trace = try? VCD.trace(bytes, a: names[0], b: names[1], file: "fuzz.vcd")
    else { return 0 }
    var decoder = QuadratureDecoder(stepsPerDetent: .four, initial: trace.initial)
    decoder.decode(trace.samples)
    _ = StepsPerDetentDetector.detect(trace)
    return 0
}
