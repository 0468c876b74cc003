import FlywheelDaemon
import Testing

/// flywheeld's command line, parsed in-process.
@Suite("flywheeld options")
struct DaemonOptionsTests {
    static func serve(_ arguments: [String]) throws -> DaemonOptions {
        guard case .serve(let options) = try DaemonOptions.parse(arguments) else { throw Unexpected() }
        return options
    }
    struct Unexpected: Error {}

    @Test("every option is read, with units and ranges")
    func options() throws {
        let options = try Self.serve([
            "--config", "c.json5", "--socket", "/tmp/s", "--replay", "r.evemu", "--channels", "A,B", "--loop", "--frames", "30",
            "--hold-until-clients", "2", "--max-clients", "9", "--scrub-duration", "60", "--input-dir", "/in", "--gpio-dir", "/g",
            "--no-devices", "--hardware", "hw",
        ])
        #expect(options.configPath == "c.json5" && options.socketPath == "/tmp/s" && options.replay == "r.evemu")
        #expect(options.channels == "A,B" && options.loop && options.framesPerSecond == 30 && options.holdUntilClients == 2)
        #expect(options.maxClients == 9 && options.scrubDurationSeconds == 60 && options.inputDirectory == "/in")
        #expect(options.gpioDirectory == "/g" && options.noDevices && options.hardware == "hw")
        #expect(try Self.serve([]).configFile == DaemonOptions.defaultConfigPath)
    }

    @Test("--help and --version print; a prefix of an option is not the option")
    func helpAndPrefixes() throws {
        guard case .print(let help) = try DaemonOptions.parse(["--help"]) else { throw Unexpected() }
        #expect(help.hasPrefix("flywheeld — ") && help.contains("--hardware DIR") && help.contains("--channels A,B"))
        guard case .print(let version) = try DaemonOptions.parse(["--version"]) else { throw Unexpected() }
        #expect(version.hasPrefix("flywheeld "))
        // `flag("h")` once matched `--h`.
        #expect(throws: ToolError.self) { try DaemonOptions.parse(["--h"]) }
    }

    @Test("mistakes are usage errors (status 2) naming the option")
    func mistakes() {
        for (arguments, words) in [
            (["--frames", "1000"], "--frames"), (["--max-clients", "0"], "--max-clients"), (["--hold-until-clients", "x"], "--hold-until-clients"),
            (["--simulate", "a.sim", "--replay", "b.evemu"], "choose one"), (["--socket"], "needs a value"), (["stray"], "stray"),
            (["--scrub-duration", "-1"], "--scrub-duration"),
        ] {
            do {
                _ = try DaemonOptions.parse(arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(error.status == 2 && error.description.contains(words), "\(arguments): \(error.description)")
            }
        }
    }
}
