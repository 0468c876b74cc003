// libFuzzer target: the .edges reader; what it accepts must round-trip through text().
import FlywheelCore
import FlywheelFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let log = try? EdgeLog.parse(bytes, file: "fuzz.edges") else { return 0 }
    let again = try? EdgeLog.parse(Array(log.text().utf8), file: "again.edges")
    precondition(again?.trace == log.trace, "an accepted edge log must round-trip")
    var decoder = QuadratureDecoder(stepsPerDetent: .two, initial: log.trace.initial)
    decoder.decode(log.trace.samples)
    return 0
}
