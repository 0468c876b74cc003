@testable import FlywheelCLI
import FlywheelIO
import Testing

/// One error style for both programs, as README's Commands section states it: the program's name
/// once, one sentence in plain words, the fix when there is one (a command-line mistake points to
/// `--help`), no C function's name unless `--verbose`.
@Suite("One error style")
struct ErrorStyleTests {
    /// What is wrong with `err` as an error of `program`, or nil.
    static func problem(_ err: String, program: String, mistake: Bool) -> String? {
        guard err.hasSuffix(".\n"), err.dropLast().split(separator: "\n").count == 1 else { return "not one line ending in a full stop" }
        guard err.hasPrefix(program + ": ") else { return "does not start with '\(program): '" }
        let sentence = err.dropFirst(program.count + 2)
        if sentence.hasPrefix("flywheel") && !sentence.hasPrefix("flywheeld ") && !sentence.hasPrefix("flywheel devices") { return "names the program twice" }
        if let first = sentence.first, first.isUppercase, sentence.dropFirst().first?.isLowercase == true { return "starts with a capital" }
        if sentence.contains(" failed:") || sentence.contains("libevdev_") || sentence.contains("gpiod_") { return "names a C function" }
        if mistake && !sentence.contains("--help") { return "a command-line mistake without a pointer to --help" }
        return nil
    }

    @Test("every command: an unknown option (or the argument it needs first) is one sentence pointing to its --help", arguments: FlywheelTool.commands.map(\.name))
    func unknownOption(_ command: String) {
        let run = ToolRun.run([command, "--no-such-option"])
        #expect(run.status == 2, "\(command): \(run.err)")
        #expect(Self.problem(run.err, program: "flywheel", mistake: true) == nil, "\(command): \(Self.problem(run.err, program: "flywheel", mistake: true) ?? "") in \(run.err)")
        #expect(run.err.contains("'flywheel \(command) --help'"), "\(run.err)")
    }

    @Test("failures from the system say what could not be done, without the C function; --verbose names it")
    func systemFailures() {
        for arguments in [["decode", "/nonexistent/knob.edges"], ["record", "/dev/null", "--seconds", "1"], ["record", "--gpio", "flywheel-no-such-chip:1,2"],
                          ["send", "--socket", "/nonexistent/flywheel.sock", "{\"cmd\":\"ping\"}"]] {
            let run = ToolRun.run(arguments)
            #expect(run.status == 1, "\(arguments): \(run.err)")
            #expect(Self.problem(run.err, program: "flywheel", mistake: false) == nil, "\(arguments): \(Self.problem(run.err, program: "flywheel", mistake: false) ?? "") in \(run.err)")
        }
        let daemon = ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", "/nonexistent/flywheel.json5", "--check-config"])
        #expect(Self.problem(daemon.err, program: "flywheeld", mistake: false) == nil, "\(daemon.err)")
        let verbose = ChildProcess.run(ChildProcess.product("flywheel"), ["--verbose", "record", "/dev/null"])
        #expect(verbose.err.contains("libevdev_new_from_fd on /dev/null failed"), "\(verbose.err)")
    }

    @Test("flywheeld: an unknown option is one sentence pointing to its --help")
    func daemonOption() {
        let run = ChildProcess.run(ChildProcess.product("flywheeld"), ["--no-such-option"])
        #expect(run.status == 2)
        #expect(Self.problem(run.err, program: "flywheeld", mistake: true) == nil, "\(run.err)")
    }
}
