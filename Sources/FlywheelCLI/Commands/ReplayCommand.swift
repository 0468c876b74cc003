import FlywheelDaemon
import FlywheelCore
import FlywheelFormats
import FlywheelSimulator

/// `flywheel replay FILE [--control tempo|scrub] [--frames HZ] [...]`: decoder → feel → control
/// in virtual time, printing the events the socket would carry.
enum ReplayCommand {
    static let usage = """
        flywheel replay FILE [--control tempo|scrub] [--frames HZ] [--steps-per-detent 1|2|4] [--channels A,B]
                      [--bpm N] [--table integer|maelzel] [--duration S] [--position S] \(FeelOptions.usage)
            Run a recording (.vcd, .edges, evemu) or a scenario (.sim) through the decoder, the physics and a
            control in virtual time and print the events as JSON lines, then exit. --frames adds continuous
            frames at HZ while in motion (default 0: none).
        """

    /// One detent move of the input, with its time.
    struct Move {
        var timeNanoseconds: Nanoseconds
        var detents: Double
        var touching = false
        var lift = false
    }

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "replay")
        let control = try args.option("control") ?? "tempo"
        let framesHz = try FeelOptions.number(&args, "frames", default: 0)!
        guard framesHz >= 0, framesHz <= 1000 else { throw .usage("--frames takes 0 to 1000 per second") }
        let stepsText = try args.option("steps-per-detent") ?? "4"
        guard let stepsValue = Int(stepsText), let steps = StepsPerDetent(rawValue: stepsValue) else {
            throw .usage("--steps-per-detent must be 1, 2 or 4, not '\(stepsText)'")
        }
        let channels = try args.option("channels")
        let hardware = try args.option("hardware")
        let bpm = try FeelOptions.number(&args, "bpm", default: 120)!
        let tableText = try args.option("table") ?? "integer"
        guard let table = TempoTable(rawValue: tableText) else { throw .usage("--table takes integer or maelzel, not '\(tableText)'") }
        let duration = try FeelOptions.number(&args, "duration", default: 214)!
        let position = try FeelOptions.number(&args, "position", default: 0)!
        guard duration >= 0 else { throw .usage("--duration must not be negative") }
        let parameters = try FeelOptions.parse(&args)
        let path = try args.positionals("one FILE to replay", count: 1...1)[0]

        let timeline = try InputTimeline.load(path, hardware: hardware, steps: steps, channels: channels, keepTimes: true)
        let moves = timeline.items.compactMap { entry -> Move? in
            switch entry.item {
            case .knob(let detents): return Move(timeNanoseconds: entry.timeNanoseconds, detents: detents)
            case .touch(let detents): return Move(timeNanoseconds: entry.timeNanoseconds, detents: detents, touching: true)
            case .lift: return Move(timeNanoseconds: entry.timeNanoseconds, detents: 0, lift: true)
            case .button, .shuttle, .gap: return nil
            }
        }
        var runner: ControlRunner
        switch control {
        case "tempo": runner = .tempo(TempoControl(dial: TempoDial(table: table), bpm: bpm, parameters: parameters))
        case "scrub":
            runner = .scrub(ScrubControl(scrubber: Scrubber(durationSeconds: duration, positionSeconds: position), parameters: parameters))
        default: throw .usage("--control takes tempo or scrub, not '\(control)'")
        }
        var text = ""
        for event in runner.run(moves, framesPerSecond: framesHz) {
            event.json.encode(into: &text)
            text += "\n"
        }
        console.out(text)
    }
}

/// A control driven in virtual time.
enum ControlRunner {
    case tempo(TempoControl)
    case scrub(ScrubControl)

    mutating func move(by detents: Double, at time: Nanoseconds, touching: Bool = false) -> [ControlEvent] {
        switch self {
        case .tempo(var c): let e = c.move(by: detents, at: time, touching: touching); self = .tempo(c); return e
        case .scrub(var c): let e = c.move(by: detents, at: time, touching: touching); self = .scrub(c); return e
        }
    }

    mutating func lift(at time: Nanoseconds) -> [ControlEvent] {
        switch self {
        case .tempo(var c): let e = c.lift(at: time); self = .tempo(c); return e
        case .scrub(var c): let e = c.lift(at: time); self = .scrub(c); return e
        }
    }

    mutating func advance(to time: Nanoseconds) -> [ControlEvent] {
        switch self {
        case .tempo(var c): let e = c.advance(to: time); self = .tempo(c); return e
        case .scrub(var c): let e = c.advance(to: time); self = .scrub(c); return e
        }
    }

    var nextDeadline: Nanoseconds? {
        switch self {
        case .tempo(let c): return c.nextDeadline
        case .scrub(let c): return c.nextDeadline
        }
    }

    func frame(at time: Nanoseconds) -> ControlEvent? {
        switch self {
        case .tempo(let c): return c.frame(at: time)
        case .scrub(let c): return c.frame(at: time)
        }
    }

    /// Feeds the moves in time order, waking only at inputs, the control's deadlines and (while
    /// in motion) frame times; returns every event.
    mutating func run(_ moves: [ReplayCommand.Move], framesPerSecond: Double) -> [ControlEvent] {
        var events: [ControlEvent] = []
        var index = 0
        // Frame k is at k/HZ seconds exactly (rounded to the nanosecond), on a fixed grid.
        func frameTime(_ k: Int64) -> Nanoseconds { Nanoseconds((Double(k) * 1e9 / framesPerSecond).rounded()) }
        func frameIndex(after t: Nanoseconds) -> Int64 {
            var k = Int64((Double(t) * framesPerSecond / 1e9).rounded(.down))
            while frameTime(k) <= t { k += 1 }
            return k
        }
        var now: Nanoseconds = moves.first?.timeNanoseconds ?? 0
        while true {
            let input = index < moves.count ? moves[index].timeNanoseconds : nil
            let deadline = nextDeadline
            var nextFrame: Nanoseconds?
            if framesPerSecond > 0, frame(at: now) != nil {
                nextFrame = frameTime(frameIndex(after: now))
            }
            guard let next = [input, deadline, nextFrame].compactMap({ $0 }).min() else { break }
            now = next
            if let deadline, deadline == next {
                events += advance(to: next)
            } else if let input, input == next {
                let move = moves[index]
                events += move.lift ? lift(at: next) : self.move(by: move.detents, at: next, touching: move.touching)
                index += 1
            } else if let frame = frame(at: next) {
                events.append(frame)
            }
        }
        return events
    }
}
