// libFuzzer target: a whole client session through the protocol — every line of the input (split
// as the server splits them, CR LF or LF) parsed and answered by one daemon core, with time moving
// on between lines — checking that every line gets exactly one answer, that answers are small, and
// that the state stays within its ranges.
import FlywheelCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var core = DaemonCore()
    var time: Nanoseconds = 1_000_000_000
    var start = 0
    for index in bytes.indices where bytes[index] == 0x0A {
        var line = bytes[start..<index]
        if line.last == 0x0D { line = line.dropLast() }
        start = index + 1
        time += Nanoseconds(line.count) * 1_000_000  // a millisecond a byte: taps, holds and idle
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }  // keep-alive
        let reply: ServerMessage
        let broadcast: [ServerMessage]
        do {
            (reply, broadcast) = core.handle(try ClientCommand.parse(Array(line)), at: time)
        } catch {
            precondition(!error.message.isEmpty && !error.code.isEmpty)
            continue
        }
        precondition(broadcast.count <= 2, "one command broadcast \(broadcast.count) messages")
        precondition(reply.bytes(seq: 1).count < 4096)
        let range = core.tempo.dial.range
        precondition(range.contains(core.tempo.bpm), "bpm \(core.tempo.bpm) outside \(range)")
        let scrubber = core.scrub.scrubber
        precondition(scrubber.positionSeconds >= 0 && scrubber.positionSeconds <= scrubber.durationSeconds)
        if reply.className == "tap", case let text = String(decoding: reply.bytes(seq: 1), as: UTF8.self), !text.contains("\"bpm\":null") {
            precondition(!text.contains("e+"), "tap \(text)")
        }
    }
    return 0
}
