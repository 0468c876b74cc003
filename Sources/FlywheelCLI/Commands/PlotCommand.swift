import FlywheelDaemon
import FlywheelCore

/// `flywheel plot --flick V --from X [--control tempo|scrub] [feel options] --format svg|csv`
enum PlotCommand {
    static let usage = """
        flywheel plot --flick V [--from X] [--control tempo|scrub] \(FeelOptions.usage) --format svg|csv
            Plot a release at X detents with V detents/s until it rests: CSV rows every 1/240 s
            (t,position,velocity,detent), or an SVG of position, reported detent and velocity.
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "plot")
        guard let velocity = try FeelOptions.number(&args, "flick") else { throw .usage("'plot' needs --flick V (detents per second)") }
        let position = try FeelOptions.number(&args, "from", default: 0)!
        guard abs(position) <= 1_000_000, abs(velocity) <= 1_000_000 else {
            throw .usage("--from and --flick take values within ±1,000,000")
        }
        let control = try args.option("control") ?? "scrub"
        let format = try args.option("format")
        let parameters = try FeelOptions.parse(&args)
        _ = try args.positionals("no files", count: 0...0)
        let bounds: Bounds
        switch control {
        case "tempo": bounds = .clamp(0...(TempoDial().detentCount - 1))
        case "scrub": bounds = .unbounded
        default: throw .usage("--control takes tempo or scrub, not '\(control)'")
        }
        if abs(velocity) > parameters.maximumSpeed {
            // The motion caps a release's speed as the daemon does: say so rather than plot another speed silently.
            console.err("flywheel plot: --flick \(MotionPlot.fixed(velocity, 1)) is above the speed cap, \(MotionPlot.fixed(parameters.maximumSpeed, 0)) detents/s (feel.max_speed); the plot flicks at the cap.\n")
        }
        let start = Int(position.rounded())
        let motion = Motion(
            releasedAt: 0, position: position, velocity: velocity, reportedDetent: bounds.clamp(start), bounds: bounds,
            parameters: parameters)
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
        case "csv": console.out(MotionPlot.csv(samples))
        case "svg":
            let title = "flick \(MotionPlot.fixed(velocity, 1)) detents/s from \(MotionPlot.fixed(position, 2)) → detent \(motion.target)"
                + " · friction \(MotionPlot.fixed(parameters.friction.perSecond, 2))/s · spring \(MotionPlot.fixed(parameters.spring.responseSeconds, 2)) s, ζ \(MotionPlot.fixed(parameters.spring.damping, 2))"
            console.out(MotionPlot.svg(samples, title: title))
        default: throw .usage("'plot' needs --format svg or csv")
        }
    }
}
