import Testing

/// Every subcommand answers `--help` with its own usage on standard output (it used to say it
/// did not know the option).
@Suite("flywheel COMMAND --help")
struct ToolHelpTests {
    static let commands = ["decode", "sim", "plot", "replay", "watch", "connect", "send", "mpd", "osc", "midi", "devices", "record", "soak"]

    @Test("each command prints its usage and succeeds", arguments: commands)
    func help(_ command: String) {
        for flag in ["--help", "-h"] {
            let run = ToolRun.run([command, flag])
            #expect(run.status == 0, "\(command) \(flag): \(run.err)")
            #expect(run.out.hasPrefix("Usage:\n") && run.out.contains("flywheel \(command)"), "\(command) \(flag): \(run.out)")
            #expect(run.err.isEmpty)
        }
    }

    @Test("the overview lists every command and how to get a command's help")
    func overview() {
        let run = ToolRun.run(["--help"])
        #expect(run.status == 0)
        for command in Self.commands { #expect(run.out.contains("flywheel \(command)")) }
        #expect(run.out.contains("flywheel COMMAND --help"))
    }
}
