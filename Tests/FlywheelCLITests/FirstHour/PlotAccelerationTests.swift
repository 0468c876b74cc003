@testable import FlywheelCLI
import FlywheelCore
import Testing

/// `flywheel plot --turn V --acceleration off|gentle|strong` draws the coast flywheeld gives: while
/// the hand turns, its acceleration makes each detent several steps, so the velocity the release
/// measures and the speed cap are the accelerated ones. The tempo accelerates by default (gentle),
/// as the daemon's does; the scrub does not.
@Suite("plot with the daemon's acceleration")
struct PlotAccelerationTests {
    /// The CSV rows of a plot.
    static func rows(_ arguments: [String]) -> [[Substring]] {
        let run = ToolRun.run(arguments + ["--format", "csv"])
        #expect(run.status == 0, "\(run.err)")
        return run.out.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
    }

    /// What flywheeld's own knob engine does with a hand that turns steadily at
    /// `detentsPerSecond` and lets go (an encoder's release, by silence): the velocity it releases
    /// with and how many detents it coasts from where the hand left it.
    static func daemonCoast(turningAt detentsPerSecond: Double, acceleration: AccelerationCurve) throws -> (velocity: Double, detents: Int) {
        var engine = KnobEngine(bounds: .clamp(0...280), detent: 0)
        engine.acceleration = acceleration
        var events: [KnobEngine.Event] = []
        let periodNanoseconds = Nanoseconds((1e9 / detentsPerSecond).rounded())
        for detent in 0..<12 { engine.move(by: 1, at: Nanoseconds(detent) * periodNanoseconds, into: &events) }
        let handPosition = engine.handPosition
        engine.advance(to: 60_000_000_000, into: &events)
        let velocity = try #require(events.lazy.compactMap { event -> Double? in
            if case .released(let velocity, _) = event { return velocity }
            return nil
        }.first)
        #expect(engine.nextDeadline == nil, "the knob rests")
        return (velocity, engine.reportedDetent - Int(handPosition))
    }

    @Test("--acceleration gentle --turn 40 lands where flywheeld's engine lands a 40 detents/s turn, further than --acceleration off")
    func gentleIsTheDaemons() throws {
        let dial = TempoDial()
        let start = dial.detent(nearest: 120)
        var landings: [String: Double] = [:]
        for (name, curve) in [("off", AccelerationCurve.off), ("gentle", AccelerationCurve.preset("gentle")!)] {
            let rows = Self.rows(["plot", "--flick", "40", "--turn", "40", "--acceleration", name, "--control", "tempo", "--from", "120"])
            let daemon = try Self.daemonCoast(turningAt: 40, acceleration: curve)
            // The release velocity is the daemon's, in the dial's detents per second.
            let velocity = try #require(Double(rows[0][2]))
            #expect(abs(velocity - daemon.velocity) < 1e-4, "\(name): the plot releases at \(velocity), the engine at \(daemon.velocity)")
            // And so is the landing, labelled in BPM.
            let landing = try #require(Double(rows.last![4]))
            #expect(Int(rows.last![3]) == start + daemon.detents, "\(name)")
            #expect(landing == dial.bpm(atDetent: start + daemon.detents).value, "\(name)")
            landings[name] = landing
        }
        #expect(try #require(landings["gentle"]) > (try #require(landings["off"])))
    }

    @Test("the plot's default acceleration is the plotted control's in flywheeld: gentle for the tempo, none for the scrub; --turn is the flick's speed unless given")
    func defaultsAreTheDaemons() {
        let daemon = DaemonCore(configuration: FlywheelConfiguration())
        #expect(daemon.tempo.knob.acceleration == AccelerationCurve.preset("gentle"))
        #expect(daemon.scrub.acceleration == .off)
        let tempo = ["plot", "--flick", "30", "--control", "tempo", "--from", "120"]
        #expect(Self.rows(tempo) == Self.rows(tempo + ["--acceleration", "gentle", "--turn", "30"]))
        #expect(Self.rows(tempo) != Self.rows(tempo + ["--acceleration", "off"]))
        let scrub = ["plot", "--flick", "30", "--from", "0"]
        #expect(Self.rows(scrub) == Self.rows(scrub + ["--acceleration", "off"]))
        #expect(Self.rows(scrub) != Self.rows(scrub + ["--acceleration", "gentle"]))
        // A hand that spun and slowed before it let go: the curve reads the turn, the coast starts from the flick.
        let slowed = Self.rows(tempo + ["--turn", "10"])
        let factor = AccelerationCurve.standard(for: .tempo).factor(atSpeed: 10)
        #expect(factor > 1 && abs((Double(slowed[0][2]) ?? 0) - 30 * factor) < 1e-6, "\(slowed[0])")
    }

    @Test("the title says the acceleration and the speed the coast starts from")
    func title() {
        let svg = ToolRun.run(["plot", "--flick", "40", "--control", "tempo", "--from", "120", "--format", "svg"]).out
        #expect(svg.contains(">gentle acceleration, 4.00 steps a detent at 40.0/s: coasts from 160.0 detents/s"), "\(svg.prefix(800))")
        let off = ToolRun.run(["plot", "--flick", "40", "--from", "0", "--format", "svg"]).out
        #expect(off.contains("no acceleration"), "\(off.prefix(800))")
    }

    @Test("--help says what --turn and --acceleration do")
    func help() {
        let help = ToolRun.run(["plot", "--help"]).out
        #expect(help.contains("[--turn V]") && help.contains("[--acceleration off|gentle|strong]"), "\(help)")
        #expect(help.contains("--turn V is the hand's speed"), "\(help)")
        #expect(help.contains("--acceleration"), "\(help)")
    }

    @Test("a bad --turn or --acceleration is refused with one sentence and status 2", arguments: [
        (["--turn", "-1"], "--turn takes the hand's speed before the release, in detents per second from 0 to 1,000,000, not '-1'"),
        (["--turn", "abc"], "--turn takes the hand's speed before the release, in detents per second from 0 to 1,000,000, not 'abc'"),
        (["--acceleration", "fast"], "--acceleration takes off, gentle or strong, not 'fast'"),
    ])
    func badValues(_ options: [String], _ sentence: String) {
        let run = ToolRun.run(["plot", "--flick", "30", "--control", "tempo"] + options + ["--format", "svg"])
        #expect(run.status == 2)
        #expect(run.err == "flywheel: \(sentence).\n")
        #expect(run.out.isEmpty)
    }
}
