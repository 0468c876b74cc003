import FlywheelCore
import FlywheelSimulator
import Testing

/// A knob's input brings the controls to its time first: what is due by then comes out before the
/// knob's own events, whether or not the caller advanced the core itself.
@Suite("Daemon core: a knob's input at its own time")
struct DaemonCoreKnobTests {
    static let ms: Nanoseconds = 1_000_000

    static func text(_ messages: [ServerMessage]) -> [String] { messages.map { String(decoding: $0.bytes(seq: 1), as: UTF8.self) } }

    /// One seeded session on two cores: a knob routed to the tempo or the scrub, turned in
    /// bursts with pauses that let it coast, settle and rest, and a shuttle ring held, moved and
    /// centred in between. One core is only given the input; the other is also advanced to each
    /// input's time first. Every message is the same, in the same order.
    @Test("turns, coasts, rests and a held shuttle ring: the same messages with or without advancing to each input first")
    func sameWithOrWithoutAdvance() {
        for seed in UInt64(1)...40 {
            var generator = SplitMix64(seed: seed)
            var alone = DaemonCore(), advanced = DaemonCore()
            var fromAlone: [ServerMessage] = [], fromAdvanced: [ServerMessage] = []
            var time: Nanoseconds = 0
            for _ in 0..<120 {
                // Mostly 10–60 ms apart (a turn), now and then 0.1–1.5 s (a coast, a settle, a rest).
                let gap = generator.unitDouble() < 0.85 ? generator.uniform(10...60) : generator.uniform(100...1500)
                time += Nanoseconds(gap) * Self.ms
                fromAdvanced += advanced.advance(to: time)
                let choice = generator.unitDouble()
                if choice < 0.08 {
                    let position = Int(generator.uniform(-7...7).rounded())
                    fromAlone += alone.shuttle(position: position, at: time)
                    fromAdvanced += advanced.shuttle(position: position, at: time)
                } else {
                    let route: KnobRoute = choice < 0.55 ? .pinned(.tempo) : .pinned(.scrub)
                    let detents: Double = generator.unitDouble() < 0.9 ? 1 : -1
                    fromAlone += alone.knob(by: detents, at: time, route: route)
                    fromAdvanced += advanced.knob(by: detents, at: time, route: route)
                }
            }
            time += 5_000 * Self.ms
            fromAlone += alone.advance(to: time)
            fromAdvanced += advanced.advance(to: time)
            #expect(fromAlone.count > 100, "seed \(seed)")
            #expect(Self.text(fromAlone) == Self.text(fromAdvanced), "seed \(seed)")
        }
    }
}
