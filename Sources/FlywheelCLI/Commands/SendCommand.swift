import FlywheelDaemon
import FlywheelIO

/// `flywheel send [--socket PATH] JSON`: one command, its answer.
enum SendCommand {
    static let usage = """
        flywheel send [--socket PATH] JSON
            Send one command to flywheeld and print its answer, a JSON line; exit 1 when the answer is an
            error. The commands (Protocol.md has every field and answer):
              {"cmd":"get"}                                           the whole state
              {"cmd":"set","control":"tempo","bpm":96}                the tempo (also "range":[40,208], "table":"maelzel")
              {"cmd":"set","control":"scrub","duration":214,"position":0}   the song's length and place, in seconds
              {"cmd":"set","control":"volume","volume":40}            the volume, 0 up to the cap
              {"cmd":"set","control":"mode","mode":"scrub"}           what a knob following the mode drives
              {"cmd":"tap"}                                           one tap of the tap tempo
              {"cmd":"watch","classes":["tempo"],"frames":true}       what this connection receives
              {"cmd":"ping"}                                          are you there?
            Example: flywheel send '{"cmd":"set","control":"tempo","bpm":96}'
            \(SocketOption.usage)
        """

    /// What `send` asks first: no events, no frames, so that the next line after its command is
    /// the command's own answer.
    static let quiet = "{\"cmd\":\"watch\",\"classes\":[],\"frames\":false}"
    /// Events passed over before that watch is answered, at most (ten times the largest queue).
    static let passedLimit = 100_000

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "send")
        let path = try SocketOption.path(&args)
        let json = try args.positionals("one JSON command such as '{\"cmd\":\"get\"}' (flywheel send --help lists them)", count: 1...1)[0]
        let client = try SocketOption.connect(path)
        do {
            _ = try client.readLine()  // the hello banner
            // Nothing but answers from here: the events already on their way before the watch's own
            // answer are passed over (at most a client's queue of them), none comes after it.
            try client.send(Self.quiet)
            var passed = 0
            while true {
                guard let line = try client.readLine() else { throw ToolError("flywheeld closed the connection without answering") }
                if line.hasPrefix("{\"class\":\"watch\"") { break }
                passed += 1
                if passed > Self.passedLimit { throw ToolError("flywheeld sent \(Self.passedLimit) events without answering a watch") }
            }
            try client.send(json)
            guard let answer = try client.readLine() else { throw ToolError("flywheeld closed the connection without answering") }
            console.out(answer + "\n")
            if answer.hasPrefix("{\"class\":\"error\"") { throw ToolError("flywheeld answered with an error", status: 1) }
        } catch let error as SystemError {
            throw ToolError("the connection to flywheeld broke: \(error.description)")
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError(error)
        }
    }
}
