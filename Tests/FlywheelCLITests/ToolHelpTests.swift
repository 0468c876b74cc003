@testable import FlywheelCLI
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

    @Test("the overview is short: every command on one line, everyday ones first, and how to get one command's help")
    func overview() {
        let run = ToolRun.run(["--help"])
        #expect(run.status == 0)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count <= 40, "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines.filter { $0.count > 100 })")
        let listed = lines.compactMap { line -> String? in
            guard line.hasPrefix("  ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(Set(listed) == Set(FlywheelTool.commands.map(\.name)) && listed.count == FlywheelTool.commands.count, "\(listed)")
        #expect(Array(listed.prefix(2)) == ["watch", "send"], "\(listed)")
        #expect(run.out.contains("flywheel help COMMAND") && run.out.contains("flywheel COMMAND --help"))
        // With no command at all: the same list, on standard error, status 2.
        let bare = ToolRun.run([])
        #expect(bare.status == 2 && bare.err == run.out && bare.out.isEmpty)
    }

    @Test("flywheel help COMMAND is that command's help alone; an unknown one is said", arguments: ["watch", "send", "mpd"])
    func helpCommand(_ command: String) {
        let run = ToolRun.run(["help", command])
        #expect(run.status == 0)
        #expect(run.out == ToolRun.run([command, "--help"]).out)
        #expect(!run.out.contains("flywheel decode") || command == "decode")
        let unknown = ToolRun.run(["help", "frobnicate"])
        #expect(unknown.status == 2 && unknown.err == "flywheel: there is no command 'frobnicate'; 'flywheel --help' lists the commands.\n")
    }
}
