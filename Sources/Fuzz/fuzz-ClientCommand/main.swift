// libFuzzer target: a client's command line (ClientCommand.parse). Any input must give a command
// or a ProtocolError, never a crash.
import FlywheelCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let command = try ClientCommand.parse(bytes)
        var core = DaemonCore()
        _ = core.handle(command, at: 1)
    } catch {
        precondition(!error.message.isEmpty)
    }
    return 0
}
