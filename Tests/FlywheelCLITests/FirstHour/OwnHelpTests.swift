import Testing

/// Each command's `--help` is its own, with an example where a newcomer needs one.
@Suite("Each command's own help")
struct OwnHelpTests {
    @Test("watch, connect and send each print only their own usage", arguments: ["watch", "connect", "send"])
    func own(_ command: String) {
        let help = ToolRun.run([command, "--help"]).out
        for other in ["watch", "connect", "send"] where other != command {
            #expect(!help.contains("flywheel \(other) ["), "\(command) --help shows \(other): \(help)")
        }
        #expect(help.contains("Example: "), "\(help)")
    }

    @Test("every command's help ends its description with an example of it, using only options its usage names")
    func everyCommandHasAnExample() throws {
        for command in ReadmeAgreementTests.commands {
            let help = ToolRun.run([command, "--help"]).out
            let examples = help.split(separator: "\n").filter { $0.contains("Example: ") }
            #expect(examples.count == 1, "\(command): \(help)")
            let example = try #require(examples.first).split(separator: "Example: ")[1]
            #expect((example + " ").contains("flywheel \(command) "), "\(command): \(example)")
            let options = example.split(separator: " ").filter { $0.hasPrefix("--") }.map { String($0) }
            for option in options where !["--address=127.0.0.1", "--port=8080", "--staticdir=udev/web"].contains(option) {
                #expect(help.contains("[\(option)") || help.contains(" \(option) ") || help.contains("(\(option)") || help.contains("|\(option)"),
                    "\(command)'s example uses \(option), which its usage does not name")
            }
        }
        let daemon = ChildProcess.run(ChildProcess.product("flywheeld"), ["--help"]).out
        #expect(daemon.contains("Example: flywheeld --simulate demo --loop --socket "))
    }

    @Test("the examples that need no hardware and no daemon run as written", arguments: [
        ["replay", "flick", "--control", "tempo", "--frames", "60"],
        ["sim", "bouncy-knob", "--emit", "edges"],
        ["plot", "--flick", "30", "--control", "tempo", "--from", "120", "--format", "svg"],
        ["soak", "--minutes", "2", "--seed", "7", "--print-scenario"],
    ])
    func examplesRun(_ arguments: [String]) {
        let help = ToolRun.run([arguments[0], "--help"]).out
        let shown = arguments.filter { $0 != "--print-scenario" }.joined(separator: " ")
        #expect(help.contains("Example: flywheel \(shown)"), "\(help)")
        let run = ToolRun.run(arguments)
        #expect(run.status == 0 && !run.out.isEmpty, "\(run.err)")
    }

    @Test("send lists every command and shows one")
    func sendListsCommands() {
        let help = ToolRun.run(["send", "--help"]).out
        for command in ["get", "set", "tap", "watch", "ping"] { #expect(help.contains(#"{"cmd":"\#(command)""#), "\(command)") }
        for control in ["tempo", "scrub", "volume", "mode"] { #expect(help.contains(#""control":"\#(control)""#), "\(control)") }
        #expect(help.contains(#"Example: flywheel send '{"cmd":"set","control":"tempo","bpm":96}'"#))
    }

    @Test("plot's usage marks --from as optional, as it is")
    func plotFromIsOptional() {
        let help = ToolRun.run(["plot", "--help"]).out
        #expect(help.contains("[--from X]"), "\(help)")
        #expect(ToolRun.run(["plot", "--flick", "3", "--format", "csv"]).status == 0)
    }

    @Test("flywheeld -h prints the usage, as flywheel -h does")
    func daemonShortHelp() {
        let run = ChildProcess.run(ChildProcess.product("flywheeld"), ["-h"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("flywheeld — "))
    }

    @Test("flywheeld's usage line and option list agree, --channels described and --simulate taking a name")
    func daemonUsageAgrees() {
        let help = ChildProcess.run(ChildProcess.product("flywheeld"), ["--help"]).out
        let sections = HelpOptions.paragraphs(help)
        let usageLine = sections.first { $0.hasPrefix("Usage:") } ?? ""
        let list = sections.first { $0.hasPrefix("  --") } ?? ""
        #expect(!usageLine.isEmpty && !list.isEmpty, "\(help)")
        let inUsage = Set(HelpOptions.options(in: usageLine))
        let described = Set(list.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("--") ? HelpOptions.options(in: String(trimmed)).first : nil
        })
        #expect(inUsage == described, "in the usage only: \(inUsage.subtracting(described)); described only: \(described.subtracting(inUsage))")
        #expect(list.contains("--channels A,B") && list.contains("--simulate SCENARIO"))
    }
}

/// The `--options` a help text names.
enum HelpOptions {
    /// The text's paragraphs (separated by blank lines).
    static func paragraphs(_ text: String) -> [String] {
        var paragraphs: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
        return paragraphs
    }

    static func options(in text: String) -> [String] {
        let characters = Array(text)
        var found: [String] = []
        var index = 0
        while index + 2 < characters.count {
            let startsOption = characters[index] == "-" && characters[index + 1] == "-" && characters[index + 2].isLetter
                && (index == 0 || !(characters[index - 1].isLetter || characters[index - 1] == "-"))
            guard startsOption else { index += 1; continue }
            var end = index + 2
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "-" { end += 1 }
            found.append(String(characters[index..<end]))
            index = end
        }
        return found
    }
}
