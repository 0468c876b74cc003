import FlywheelDaemon
import FlywheelCore
import FlywheelIO

/// `flywheel watch [--socket PATH] [--raw] [--classes tempo,scrub] [--frames] [--wall-clock]`.
enum WatchCommand {
    static let usage = """
        flywheel watch [--socket PATH] [--classes tempo,scrub,…] [--frames] [--wall-clock | --raw]
            Show the daemon's events live, a readable line each: the seconds since the first event (the
            time of day with --wall-clock), the class and what happened, buttons by name (BTN_0), the
            tempo in BPM, the scrub in m:ss.t, frames with the knob's offset and velocity. --raw prints
            the JSON lines as they come instead. --classes chooses from tempo, volume, scrub, mode, button,
            device, gap, hint and frame (default: all but frame); --frames (or the class frame) adds the
            continuous frames. Reconnects when the daemon restarts, saying so on standard error; stops on
            SIGTERM or SIGINT (Ctrl-C).
            Example: flywheel watch --classes tempo,scrub
            \(SocketOption.usage)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "watch")
        let path = try SocketOption.path(&args)
        let raw = args.flag("raw")
        let wallClock = args.flag("wall-clock")
        let framesFlag = args.flag("frames")
        let classes = try args.option("classes").map { (text: String) throws(ToolError) in try WatchClasses(text) }
        _ = try args.positionals("no other arguments", count: 0...0)
        guard !(raw && wallClock) else { throw .usage("--wall-clock changes the readable lines; --raw prints the wire's own times: choose one") }
        let frames = framesFlag || (classes?.wantsFrames ?? false)
        var request: String?
        if classes != nil || frames {
            var fields: [(String, JSONValue)] = [("cmd", .string("watch"))]
            if let classes { fields.append(("classes", .array(classes.classes.map { .string($0.rawValue) }))) }
            fields.append(("frames", .bool(frames)))
            request = JSONValue.object(fields).encoded()
        }
        var text = EventText(clock: wallClock ? .wall : .relative, timeOfDay: Self.timeOfDay)
        let session = try DaemonSession(
            path: path, name: "flywheel watch", request: request,
            deliver: { console.out((raw ? $0 : text.line($0)) + "\n") }, log: { console.err($0 + "\n") })
        try session.run()
    }

    /// CLOCK_MONOTONIC seconds as the local time of day, `HH:MM:SS.mmm`.
    static func timeOfDay(_ monotonicSeconds: Double) -> String {
        let sinceEpoch = Nanoseconds(monotonicSeconds * 1e9) + (WallClock.now() - MonotonicClock.now())
        return WallClock.timeOfDay(sinceEpoch)
    }
}
