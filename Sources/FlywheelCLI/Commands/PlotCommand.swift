import FlywheelDaemon
import FlywheelCore

/// `flywheel plot --flick V [--control tempo|scrub] [--from X] [--duration S] [feel options] --format svg|csv`
enum PlotCommand {
    static let usage = """
        flywheel plot --flick V [--control tempo|scrub] [--from X] [--duration S] \(FeelOptions.usage) --format svg|csv
            Plot a knob let go at V detents/s until it rests: CSV rows every 1/240 s (t,position,velocity,
            detent and the control's value), or an SVG of position, reported detent and velocity, its axis
            in the control's units. --control scrub (the default): --from is the place in seconds (0) in
            content --duration S long (214, the demo's song), moved at the daemon's resolution for that
            length; --control tempo: --from is the BPM (120) on the 20-300 dial.
            Example: flywheel plot --flick 30 --control tempo --from 120 --format svg > flick.svg
        """

    /// The scrub's content length when --duration is not given: the demo's song, 3:34.
    static let defaultDurationSeconds = DaemonOptions.defaultScrubDuration(playing: "demo")

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "plot")
        guard let velocity = try FeelOptions.number(&args, "flick") else { throw .usage("'plot' needs --flick V (detents per second)") }
        guard abs(velocity) <= 1_000_000 else { throw .usage("--flick takes detents per second within ±1,000,000") }
        let control = try args.option("control") ?? "scrub"
        let from = try FeelOptions.number(&args, "from")
        let duration = try FeelOptions.number(&args, "duration")
        let format = try args.option("format")
        let parameters = try FeelOptions.parse(&args)
        _ = try args.positionals("no files", count: 0...0)
        let scale: PlotScale
        switch control {
        case "tempo":
            guard duration == nil else { throw .usage("--duration is the scrub's content length; the tempo has none") }
            scale = try PlotScale.tempo(fromBPM: from ?? 120)
        case "scrub":
            scale = try PlotScale.scrub(fromSeconds: from ?? 0, durationSeconds: duration ?? Self.defaultDurationSeconds)
        default: throw .usage("--control takes tempo or scrub, not '\(control)'")
        }
        if abs(velocity) > parameters.maximumSpeed {
            // The motion caps a release's speed as the daemon does: say so rather than plot another speed silently.
            console.err("flywheel plot: --flick \(MotionPlot.fixed(velocity, 1)) is above the speed cap, \(MotionPlot.fixed(parameters.maximumSpeed, 0)) detents/s (feel.max_speed); the plot flicks at the cap.\n")
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
            let title = "\(scale.heading): flick \(MotionPlot.fixed(velocity, 1)) detents/s from \(scale.label(scale.value(position)))"
                + " → \(scale.label(scale.value(Double(motion.target))))"
                + " · friction \(MotionPlot.fixed(parameters.friction.perSecond, 2))/s · spring \(MotionPlot.fixed(parameters.spring.responseSeconds, 2)) s, ζ \(MotionPlot.fixed(parameters.spring.damping, 2))"
            console.out(MotionPlot.svg(samples, title: title, scale: scale))
        default: throw .usage("'plot' needs --format svg or csv")
        }
    }
}
