@testable import FlywheelCLI
import FlywheelCore
import FlywheelDaemon
import Testing

/// `flywheel plot` speaks each control's own units: the tempo's BPM on its dial, the scrub's place
/// in content of a given length, and the velocity on its own labelled axis.
@Suite("plot in the control's units")
struct PlotUnitsTests {
    static func rows(_ arguments: [String]) -> [[Substring]] {
        let run = ToolRun.run(arguments + ["--format", "csv"])
        return run.out.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
    }

    @Test("--control tempo --from is in BPM: 120 BPM is the dial's detent 100, and the value column is the dial's BPM")
    func tempoFromIsBPM() throws {
        let run = ToolRun.run(["plot", "--flick", "30", "--control", "tempo", "--from", "120", "--format", "csv"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("t,position,velocity,detent,bpm\n"))
        let rows = Self.rows(["plot", "--flick", "30", "--control", "tempo", "--from", "120"])
        let dial = TempoDial()
        #expect(Double(rows[0][1]) == Double(dial.detent(nearest: 120)))
        // The tempo accelerates by default, as flywheeld's: a hand that lets go at 30 detents/s turned
        // that fast, each detent 4 steps, so the coast starts at 120 detents/s and may reach 240.
        let factor = AccelerationCurve.standard(for: .tempo).factor(atSpeed: 30)
        var feel = FeelParameters()
        feel.maximumSpeed *= factor
        let target = Motion(releasedAt: 0, position: 100, velocity: 30 * factor, reportedDetent: 100, bounds: .clamp(0...280), parameters: feel).target
        #expect(Int(rows.last![3]) == target && Double(rows.last![4]) == dial.bpm(atDetent: target).value)
        // Between whole BPMs the start is part way to the next detent.
        #expect(Double(Self.rows(["plot", "--flick", "1", "--control", "tempo", "--from", "96.5"])[0][1]) == 76.5)
    }

    @Test("--control scrub --from is in seconds of content --duration long, at the daemon's resolution for that length")
    func scrubFromIsSeconds() throws {
        let rows = Self.rows(["plot", "--flick", "30", "--control", "scrub", "--from", "60", "--duration", "600"])
        var scrubber = Scrubber()
        scrubber.set(durationSeconds: 600, positionSeconds: 60)
        #expect(scrubber.secondsPerDetent == 3)
        #expect(Double(rows[0][4]) == 60)
        let detent = try #require(Double(rows.last![3]))
        #expect(Double(rows.last![4]) == 60 + detent * 3)
        // The default content is the demo's song, 3:34.
        let svg = ToolRun.run(["plot", "--flick", "30", "--format", "svg"]).out
        #expect(svg.contains("scrub of 3:34.0, 1.07 s a detent: flick 30.0 detents/s from 0:00.0 → "), "\(svg.prefix(400))")
    }

    @Test("the same flick plotted for the tempo and for the scrub draws two pictures, each labelled in its units")
    func scrubIsNotTempo() {
        let tempo = ToolRun.run(["plot", "--flick", "30", "--control", "tempo", "--format", "svg"]).out
        let scrub = ToolRun.run(["plot", "--flick", "30", "--control", "scrub", "--format", "svg"]).out
        #expect(tempo != scrub)
        #expect(tempo.contains(">BPM</text>") && tempo.contains(">120</text>") && tempo.contains("tempo: flick 30.0 detents/s from 120 → "))
        #expect(scrub.contains(">m:ss.t</text>") && scrub.contains(">0:00.0</text>") && !scrub.contains(">BPM</text>"))
    }

    @Test("the velocity has its own axis: its peak both ways and its zero are labelled in detents/s")
    func velocityAxis() {
        let svg = ToolRun.run(["plot", "--flick", "-12", "--from", "30", "--format", "svg"]).out
        #expect(svg.contains(">detents/s</text>"))
        #expect(svg.contains(">+12.0</text>") && svg.contains(">−12.0</text>") && svg.contains(">0</text>"))
        #expect(svg.contains("stroke-dasharray=\"2 4\""))  // the zero line
        #expect(!svg.contains("scaled"))
    }

    @Test("a start outside the control's range is refused with the range")
    func outOfRange() {
        #expect(ToolRun.run(["plot", "--flick", "3", "--control", "tempo", "--from", "500", "--format", "csv"]).err
            == "flywheel: --from takes the tempo's starting BPM, from 20 to 300, for --control tempo; not 500.0.\n")
        #expect(ToolRun.run(["plot", "--flick", "3", "--from", "300", "--duration", "200", "--format", "csv"]).err
            == "flywheel: --from takes the scrub's starting place in seconds, from 0 to the --duration 200.0; not 300.0.\n")
        #expect(ToolRun.run(["plot", "--flick", "3", "--control", "tempo", "--duration", "60", "--format", "csv"]).status == 2)
        #expect(ToolRun.run(["plot", "--flick", "3", "--duration", "0", "--format", "csv"]).status == 2)
    }
}
