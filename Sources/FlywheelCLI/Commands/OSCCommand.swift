import FlywheelDaemon
import FlywheelIO

/// `flywheel osc [--socket PATH] --to HOST:PORT [--preset generic|klick]`
enum OSCCommand {
    static let usage = """
        flywheel osc [--socket PATH] --to HOST:PORT [--preset generic|klick]
            Send flywheeld's events as OSC 1.0 over UDP to HOST:PORT as they happen. generic (the default):
            /flywheel/tempo ,f BPM; /flywheel/scrub ,fs POSITION PHASE; /flywheel/volume ,f; /flywheel/mode ,s;
            /flywheel/button ,is CODE ACTION. klick: /klick/simple/set_tempo ,f BPM (the klick metronome).
            Reconnects to flywheeld; exits on SIGTERM.
            Example: flywheel osc --to 127.0.0.1:9876 --preset klick   (with klick -o 9876 running)
        """

    static func run(_ arguments: [String], console: Console) throws(ToolError) {
        var args = Arguments(arguments, command: "osc")
        let socket = try SocketOption.path(&args)
        guard let target = try args.option("to") else { throw .usage("'osc' needs --to HOST:PORT (where the OSC receiver listens)", help: true) }
        let presetName = try args.option("preset") ?? "generic"
        guard let preset = OSCPreset(rawValue: presetName) else {
            throw .usage("--preset takes \(OSCPreset.allCases.map(\.rawValue).joined(separator: " or ")), not '\(presetName)'")
        }
        _ = try args.positionals("no files", count: 0...0)
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]), (1...65535).contains(port) else {
            throw .usage("--to takes HOST:PORT with a port from 1 to 65535, not '\(target)'")
        }
        do {
            let sender = try UDPSender(to: target)
            try OSCBridge(flywheel: socket, sender: sender, preset: preset, log: { console.err($0 + "\n") }).run()
        } catch { throw ToolError("\(error)") }
    }
}
