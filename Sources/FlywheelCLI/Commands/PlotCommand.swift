import FlywheelDaemon
import FlywheelCore

/// `flywheel plot --flick V [--turn V] [--acceleration off|gentle|strong] [--control tempo|scrub] [--from X] [--duration S] [feel options] --format svg|csv`
enum PlotCommand {
    static let usage = """
        flywheel plot --flick V [--turn V] [--acceleration off|gentle|strong] [--control tempo|scrub] [--from X] [--duration S] \(FeelOptions.usage) --format svg|csv
            Plot a knob let go at V detents/s until it rests: CSV rows every 1/240 s (t,position,velocity,
            detent and the control's value), or an SVG of position, reported detent and velocity, its axis
            in the control's units. --control scrub (the default): --from is the place in seconds (0) in
            content --duration S long (214, the demo's song), moved at the daemon's resolution for that
            length; --control tempo: --from is the BPM (120) on the 20-300 dial.
            The coast is the one flywheeld gives after a turn: --turn V is the hand's speed in detents/s
            before the release (as the daemon measures it, over the turn's last 100 ms; the flick's unless
            given), at which --acceleration (off, gentle or strong; by default the daemon's for the control:
            gentle for the tempo, off for the scrub) makes each detent several steps, so the coast starts
            from the flick times that many steps and its speed cap grows alike (gentle: 4 from 30/s).
            Example: flywheel plot --flick 30 --control tempo --from 120 --format svg > flick.svg
        """

    /// The scrub's content length when --duration is not given: the demo's song, 3:34.
    static let defaultDurationSeconds = DaemonOptions.defaultScrubDuration(playing: "demo")

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "plot")
        let control: Control
        switch try args.option("control") ?? "scrub" {
        case "tempo": control = .tempo
        case "scrub": control = .scrub
        case let other: throw .usage("--control takes tempo or scrub, not '\(other)'")
        }
        let flick = try PlotFlick.parse(&args, control: control)
        let from = try FeelOptions.number(&args, "from")
        let duration = try FeelOptions.number(&args, "duration")
        let format = try args.option("format")
        let parameters = flick.releaseFeel(try FeelOptions.parse(&args))
        _ = try args.positionals("no files", count: 0...0)
        let scale: PlotScale
        if control == .tempo {
            guard duration == nil else { throw .usage("--duration is the scrub's content length; the tempo has none") }
            scale = try PlotScale.tempo(fromBPM: from ?? 120)
        } else {
            scale = try PlotScale.scrub(fromSeconds: from ?? 0, durationSeconds: duration ?? Self.defaultDurationSeconds)
        }
        let velocity = flick.releaseDetentsPerSecond
        if abs(velocity) > parameters.maximumSpeed {
            // The motion caps a release's speed as the daemon does: say so rather than plot another speed silently.
            let grown = flick.factor == 1 ? "" : ", \(MotionPlot.fixed(parameters.maximumSpeed, 0)) detents/s of the coast with the acceleration's \(MotionPlot.fixed(flick.factor, 2)) steps a detent"
            console.err("flywheel plot: --flick \(MotionPlot.fixed(flick.handDetentsPerSecond, 1)) is above the speed cap, \(MotionPlot.fixed(parameters.maximumSpeed / flick.factor, 0)) detents/s (feel.max_speed\(grown)); the plot flicks at the cap.\n")
        }
        let position = scale.startDetents
        let motion = Motion(
            releasedAt: 0, position: position, velocity: velocity, reportedDetent: scale.bounds.clamp(Int(position.rounded())),
            bounds: scale.bounds, parameters: parameters)
        var samples: [MotionSample] = []
        var frame: Int64 = 0
        while true {
            let time = frame * 1_000_000_000 / 240
            let state = motion.state(at: min(time, motion.settleNanoseconds))
            samples.append(MotionSample(seconds: Double(time) / 1e9, position: state.position, velocity: state.velocity, detent: state.reportedDetent))
            if time >= motion.settleNanoseconds { break }
            frame += 1
        }
        switch format {
        case "csv": console.out(MotionPlot.csv(samples, scale: scale))
        case "svg":
            let title = "\(scale.heading): flick \(MotionPlot.fixed(flick.handDetentsPerSecond, 1)) detents/s from \(scale.label(scale.value(position)))"
                + " → \(scale.label(scale.value(Double(motion.target))))"
                + " · \(flick.clause(coastDetentsPerSecond: motion.state(at: 0).velocity))"
                + " · friction \(MotionPlot.fixed(parameters.friction.perSecond, 2))/s · spring \(MotionPlot.fixed(parameters.spring.responseSeconds, 2)) s, ζ \(MotionPlot.fixed(parameters.spring.damping, 2))"
            console.out(MotionPlot.svg(samples, title: title, scale: scale))
        default: throw .usage("'plot' needs --format svg or csv", help: true)
        }
    }
}
