import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import Glibc

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
        let log: (String) -> Void = { console.err($0 + "\n") }
        let loop = try SessionLoop()
        let daemon = DaemonLink(path: path, name: "flywheel watch", request: request.map { [$0] } ?? [], log: log)
        // Standard output through the loop: a terminal or pipe that stops taking lines holds the
        // daemon's lines (and then the daemon's queue), never the loop.
        let output = OutputQueue(fd: STDOUT_FILENO, name: "standard output")
        var failure: ToolError?
        // The loop holds the output (its parts): the output's handler holds the loop unowned, or
        // the two (and the daemon's link and its connection) would hold each other past the run.
        output.onClosed = { [unowned loop] error in
            failure = ToolError("watch's standard output was closed (\(Errno.describe(error.errno))); it stops")
            loop.stop()
        }
        daemon.onLine = { line in
            let wire = String(decoding: line, as: UTF8.self)
            output.append(Array((raw ? wire : text.line(wire)).utf8))
        }
        try daemon.connectNow()
        loop.parts = [daemon, output]
        loop.beforePoll = { daemon.readPaused = output.isFull }
        try loop.run()
        if let failure { throw failure }
    }

    /// CLOCK_MONOTONIC seconds as the local time of day, `HH:MM:SS.mmm`.
    static func timeOfDay(_ monotonicSeconds: Double) -> String {
        let sinceEpoch = Nanoseconds(monotonicSeconds * 1e9) + (WallClock.now() - MonotonicClock.now())
        return WallClock.timeOfDay(sinceEpoch)
    }
}
