import FlywheelDaemon
import FlywheelCore

/// What a plot's position means in the plotted control's own units: the tempo's BPM (its dial's
/// table, read between detents) or the scrub's place in the content (m:ss.t, its resolution scaled to
/// the content's length as the daemon's scrubber does). The motion itself is in detents.
struct PlotScale {
    /// The control plotted.
    let control: Control
    /// The motion's bounds, in detents, as the daemon's knob on this control has them.
    let bounds: Bounds
    /// The positions, in detents, inside the control's range (the dial's ends, the content's).
    let limits: ClosedRange<Double>
    /// Where the flick starts, in detents.
    let startDetents: Double
    /// The CSV column of the value, named with its unit (`bpm`, `seconds`).
    let column: String
    /// The unit in the legend.
    let unit: String
    /// A position in detents → the value in the control's units.
    let value: (Double) -> Double
    /// A value → its label (`137`, `0:18.2`).
    let label: (Double) -> String
    /// A phrase for the title, before the flick (`tempo`, `scrub of 3:34.0, 1.07 s a detent`).
    let heading: String

    /// The tempo from `bpm` on the default dial (20–300, a BPM a detent).
    static func tempo(fromBPM bpm: Double, dial: TempoDial = TempoDial()) throws(ToolError) -> PlotScale {
        let values = dial.values.map { Double($0) / 10 }  // the dial holds tenths of a BPM
        let low = values.first!, high = values.last!
        guard bpm >= low, bpm <= high else {
            throw .usage("--from takes the tempo's starting BPM, from \(Int(low)) to \(Int(high)), for --control tempo; not \(MotionPlot.fixed(bpm, 1))")
        }
        // The dial's position for `bpm`: its detent, and the fraction of the way to the next one.
        var start = Double(dial.values.count - 1)
        for index in 0..<(values.count - 1) where bpm < values[index + 1] {
            start = Double(index) + (bpm - values[index]) / (values[index + 1] - values[index])
            break
        }
        func value(_ position: Double) -> Double {
            let clamped = min(max(position, 0), Double(values.count - 1))
            let index = min(Int(clamped), values.count - 2)
            guard index >= 0 else { return values[0] }
            return values[index] + (clamped - Double(index)) * (values[index + 1] - values[index])
        }
        return PlotScale(
            control: .tempo, bounds: .clamp(0...(dial.detentCount - 1)), limits: 0...Double(dial.detentCount - 1), startDetents: start, column: "bpm", unit: "BPM",
            value: value, label: { MotionPlot.fixed($0, $0 == $0.rounded() ? 0 : 1) }, heading: "tempo")
    }

    /// The scrub from `seconds` into content `durationSeconds` long (`scrubber`'s resolution).
    static func scrub(fromSeconds seconds: Double, durationSeconds: Double, scrubber base: Scrubber = Scrubber()) throws(ToolError) -> PlotScale {
        guard durationSeconds > 0, durationSeconds <= 1_000_000 else {
            throw .usage("--duration takes the content's length in seconds, above 0 and at most 1,000,000; not \(MotionPlot.fixed(durationSeconds, 1))")
        }
        guard seconds >= 0, seconds <= durationSeconds else {
            throw .usage("--from takes the scrub's starting place in seconds, from 0 to the --duration \(MotionPlot.fixed(durationSeconds, 1)); not \(MotionPlot.fixed(seconds, 1))")
        }
        var scrubber = base
        scrubber.set(durationSeconds: durationSeconds, positionSeconds: seconds)
        let perDetent = scrubber.secondsPerDetent
        // As the daemon's: the knob is unbounded and the scrubber stops at the content's ends.
        return PlotScale(
            control: .scrub, bounds: .unbounded, limits: (-seconds / perDetent)...((durationSeconds - seconds) / perDetent), startDetents: 0, column: "seconds", unit: "m:ss.t",
            value: { min(max(seconds + $0 * perDetent, 0), durationSeconds) }, label: { EventText.clock($0) },
            heading: "scrub of \(EventText.clock(durationSeconds)), \(MotionPlot.fixed(perDetent, 2)) s a detent")
    }
}
