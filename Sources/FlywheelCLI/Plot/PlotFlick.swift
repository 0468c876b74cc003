import FlywheelCore
import FlywheelDaemon

/// The release a plot draws, as flywheeld's knob engine makes it (``KnobEngine``): the hand lets
/// go at `handDetentsPerSecond` after turning at `turnDetentsPerSecond`, and while it turned the
/// control's ``AccelerationCurve`` made each of its detents `factor` steps. The engine's position
/// moves by the accelerated steps, so its velocity fit measures the hand's velocity times the
/// factor, and the release's speed cap grows by the factor too: the coast starts from the
/// accelerated speed, in the control's detents (a step each, a BPM on the tempo's dial).
struct PlotFlick {
    /// The hand's velocity as it lets go, in its own detents per second (negative: down).
    let handDetentsPerSecond: Double
    /// The hand's speed as it turned just before the release, in detents per second: what the
    /// acceleration reads (the engine measures it over the last 100 ms of the turn).
    let turnDetentsPerSecond: Double
    /// The acceleration while the hand turns.
    let acceleration: AccelerationCurve

    /// The fastest hand and turn the options take, in detents per second.
    static let maximumDetentsPerSecond = 1_000_000.0

    /// The steps each detent of the turn made.
    var factor: Double { acceleration.factor(atSpeed: turnDetentsPerSecond) }

    /// The release velocity the engine measures, in the control's detents per second.
    var releaseDetentsPerSecond: Double { handDetentsPerSecond * factor }

    /// The feel the release plans with, as the engine's after an accelerated turn.
    func releaseFeel(_ feel: FeelParameters) -> FeelParameters { feel.accelerated(by: factor) }

    /// The title's clause: the acceleration, the turn it read and the speed the coast starts from
    /// (`coastDetentsPerSecond`, after the cap).
    func clause(coastDetentsPerSecond: Double) -> String {
        guard !acceleration.isOff else { return "no acceleration" }
        let name = AccelerationCurve.presetNames.first { AccelerationCurve.preset($0) == acceleration } ?? "custom"
        return "\(name) acceleration, \(MotionPlot.fixed(factor, 2)) steps a detent at \(MotionPlot.fixed(turnDetentsPerSecond, 1))/s:"
            + " coasts from \(MotionPlot.fixed(abs(coastDetentsPerSecond), 1)) detents/s"
    }

    /// The flick `--flick`, `--turn` and `--acceleration` give for `control` (its acceleration by
    /// default as flywheeld's, a turn by default as fast as the flick: a steady turn let go).
    static func parse(_ args: inout Arguments, control: Control) throws(ToolError) -> PlotFlick {
        guard let hand = try FeelOptions.number(&args, "flick") else { throw .usage("'plot' needs --flick V (detents per second)", help: true) }
        guard abs(hand) <= maximumDetentsPerSecond else { throw .usage("--flick takes detents per second within ±1,000,000") }
        var turn = abs(hand)
        if let text = try args.option("turn") {
            guard let speed = Double(text), speed >= 0, speed <= maximumDetentsPerSecond else {
                throw .usage("--turn takes the hand's speed before the release, in detents per second from 0 to 1,000,000, not '\(text)'")
            }
            turn = speed
        }
        var acceleration = AccelerationCurve.standard(for: control)
        if let name = try args.option("acceleration") {
            guard let preset = AccelerationCurve.preset(name) else {
                throw .usage("--acceleration takes \(AccelerationCurve.presetNames.dropLast().joined(separator: ", ")) or \(AccelerationCurve.presetNames.last!), not '\(name)'")
            }
            acceleration = preset
        }
        return PlotFlick(handDetentsPerSecond: hand, turnDetentsPerSecond: turn, acceleration: acceleration)
    }
}
