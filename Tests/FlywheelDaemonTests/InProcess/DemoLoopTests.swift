import FlywheelCore
@testable import FlywheelDaemon
import Testing

/// `flywheeld --simulate demo --loop`, the quick start's first command, in this process and in
/// virtual time: each loop ends where it began, so a demo left running stays in the dial's range
/// (each loop added about 49 BPM, and after ~45 s every tempo was 297–300).
@Suite("The demo looped", .serialized)
@MainActor
struct DemoLoopTests {
    static let demo = Hands.root + "/hardware/scenarios/demo.sim"

    @Test("five loops of the demo: every loop's tempo turns settle in the same places, the last where the first began")
    func netZero() throws {
        let daemon = try InProcessDaemon(["--simulate", Self.demo, "--loop", "--hold-until-clients", "1", "--frames", "0"])
        defer { daemon.stop() }
        let client = try daemon.connect()
        let hello = try #require(try client.next())
        #expect(hello["class"] == .string("hello"))
        var settled: [Double] = []
        var modes: [String] = []
        var scrubs = 0
        while modes.count < 10, let message = try client.next() {
            switch message["class"]?.stringValue {
            case "tempo" where message["phase"] == .string("settled"): settled.append(try #require(message["bpm"]?.doubleValue))
            case "mode": modes.append(try #require(message["mode"]?.stringValue))
            case "scrub": scrubs += 1
            default: break
            }
        }
        // The last loop's turns back come after its second click.
        while settled.count < 30, let message = try client.next() {
            if message["class"] == .string("tempo"), message["phase"] == .string("settled") { settled.append(try #require(message["bpm"]?.doubleValue)) }
        }
        #expect(modes == Array(repeating: ["scrub", "tempo"], count: 5).flatMap { $0 })
        #expect(scrubs > 0)
        try #require(settled.count == 30, "\(settled)")
        let first = Array(settled[0..<6])
        #expect(first.last == 120, "the first loop ends at \(first.last ?? 0), not where it began: \(first)")
        #expect(first.max()! > 150, "the demo's flick no longer shows: \(first)")
        for loop in 1..<5 { #expect(Array(settled[(loop * 6)..<(loop * 6 + 6)]) == first, "loop \(loop + 1): \(settled)") }
    }
}
