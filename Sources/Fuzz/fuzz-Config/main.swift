// libFuzzer target: the configuration parser (JSON5 with lines, then the schema).
import FlywheelCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let config = try FlywheelConfiguration.parse(bytes, file: "fuzz.json5")
        _ = DaemonCore(configuration: config)
    } catch {
        precondition(error.line >= 1)
    }
    return 0
}
