import FlywheelDaemon
import FlywheelCore
import FlywheelIO
import Glibc

/// `flywheel watch [--socket PATH] [--raw] [--classes tempo,scrub]`, `flywheel connect [--socket PATH]` and
/// `flywheel send [--socket PATH] JSON`.
enum WatchCommand {
    static let usage = """
        flywheel watch [--socket PATH] [--raw] [--classes tempo,scrub,…] [--frames]
            Show the daemon's events live: a readable line per event, or the JSON lines with --raw.
            Reconnects when the daemon restarts, saying so on standard error; stops on SIGTERM or SIGINT.
        flywheel connect [--socket PATH]
            Both ways, for a WebSocket gateway such as websocketd: each line of standard input is a command
            to the daemon, each line from the daemon (answers and events) a JSON line on standard output.
            Reconnects as watch does; stops at the end of standard input, on SIGTERM or SIGINT.
        flywheel send [--socket PATH] JSON
            Send one command and print the answer.
        """

    static func defaultSocket() -> String {
        if let runtime = Environment.value("RUNTIME_DIRECTORY") { return runtime + "/flywheel.sock" }
        if FileSystem.exists("/run/flywheel/flywheel.sock") { return "/run/flywheel/flywheel.sock" }
        if let xdg = Environment.value("XDG_RUNTIME_DIR"), FileSystem.exists(xdg + "/flywheel.sock") { return xdg + "/flywheel.sock" }
        return "/run/flywheel/flywheel.sock"
    }

    static func connect(_ path: String) throws(ToolError) -> UnixClient {
        do { return try UnixClient(path: path) } catch {
            throw ToolError("Cannot reach flywheeld at \(path): \(error.description) Is the daemon running? Give its socket with --socket PATH")
        }
    }

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "watch")
        let path = try args.option("socket") ?? defaultSocket()
        let raw = args.flag("raw")
        let frames = args.flag("frames")
        let classes = try args.option("classes")
        _ = try args.positionals("no files", count: 0...0)
        var request: String?
        if classes != nil || frames {
            let list = classes.map { $0.split(separator: ",").map { JSONValue.string(String($0)) } }
            var fields: [(String, JSONValue)] = [("cmd", .string("watch"))]
            if let list { fields.append(("classes", .array(list))) }
            fields.append(("frames", .bool(frames)))
            request = JSONValue.object(fields).encoded()
        }
        let session = try DaemonSession(
            path: path, name: "flywheel watch", request: request,
            deliver: { console.out((raw ? $0 : readable($0)) + "\n") }, log: { console.err($0 + "\n") })
        try session.run()
    }

    /// `flywheel connect`: standard input's lines to the daemon, the daemon's lines to standard output.
    static func runConnect(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "connect")
        let path = try args.option("socket") ?? defaultSocket()
        _ = try args.positionals("no files", count: 0...0)
        let session = try DaemonSession(
            path: path, name: "flywheel connect", request: nil, input: LineInput(fd: STDIN_FILENO, name: "standard input"),
            deliver: { console.out($0 + "\n") }, log: { console.err($0 + "\n") })
        try session.run()
    }

    static func send(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "send")
        let path = try args.option("socket") ?? defaultSocket()
        let json = try args.positionals("one JSON command", count: 1...1)[0]
        let client = try connect(path)
        do {
            _ = try client.readLine()  // the hello banner
            try client.send(json)
            guard let answer = try client.readLine() else { throw ToolError("flywheeld closed the connection without answering") }
            console.out(answer + "\n")
            if answer.hasPrefix("{\"class\":\"error\"") { throw ToolError("flywheeld answered with an error", status: 1) }
        } catch let error as SystemError {
            throw ToolError("The connection to \(path) failed: \(error.description)")
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError(error)
        }
    }

    /// One readable line for an event.
    static func readable(_ line: String) -> String {
        guard let value = try? JSONParser.parse(Array(line.utf8)), let className = value["class"]?.stringValue else { return line }
        let time = value["time"]?.doubleValue.map { MotionPlot.fixed($0, 3) } ?? "?"
        func text(_ key: String) -> String {
            guard let field = value[key] else { return "?" }
            if let s = field.stringValue { return s }
            if let d = field.doubleValue { return d == d.rounded() ? String(Int(d)) : MotionPlot.fixed(d, 2) }
            return field.encoded()
        }
        switch className {
        case "tempo": return "\(time)  tempo  \(text("bpm")) BPM  (\(text("phase")))"
        case "scrub":
            return "\(time)  scrub  \(clock(value["position"]?.doubleValue)) / \(clock(value["duration"]?.doubleValue))  \(text("phase"))"
        case "mode": return "\(time)  mode   \(text("mode"))"
        case "button": return "\(time)  button \(text("code")) \(text("action"))"
        case "frame": return "\(time)  frame  \(text("control")) \(text("value"))"
        case "hello": return "connected to flywheeld \(text("version")), protocol \(text("protocol"))"
        case "error": return "\(time)  error  \(text("code")): \(text("message"))"
        default: return "\(time)  \(className)  \(line)"
        }
    }

    static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "?" }
        let whole = Int(seconds)
        let tenths = Int((seconds - Double(whole)) * 10)
        let s = whole % 60
        return "\(whole / 60):\(s < 10 ? "0" : "")\(s).\(tenths)"
    }
}
