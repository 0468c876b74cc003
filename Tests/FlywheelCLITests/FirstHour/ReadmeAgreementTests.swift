import Glibc
import Testing

/// The README a newcomer reads first: short, a quick start that runs on the built binaries, and a
/// command table that agrees with every command's `--help`; the music box's configuration passes
/// `--check-config`.
@Suite("The README and the help agree")
struct ReadmeAgreementTests {
    static let readme = RepositoryPaths.read(RepositoryPaths.path("README.md")) ?? ""
    static let commands = [
        "watch", "send", "connect", "mpd", "osc", "mqtt", "alsa", "keys", "volumio", "moode", "pipewire", "midi", "devices", "record", "decode",
        "replay", "sim", "plot", "soak",
    ]

    /// The first cell (its code span) of the README's command-table row for `prefix`.
    static func row(_ prefix: String) -> String? {
        guard let line = readme.split(separator: "\n").first(where: { $0.hasPrefix("| `\(prefix) ") }) else { return nil }
        let cell = line.split(separator: "|", omittingEmptySubsequences: false).reduce(into: [String]()) { cells, part in
            // `\|` inside a cell is a | of the text, not a cell boundary.
            if let last = cells.last, last.hasSuffix("\\") { cells[cells.count - 1] = String(last.dropLast()) + "|" + part } else { cells.append(String(part)) }
        }
        return cell.count > 1 ? cell[1] : nil
    }

    /// The usage lines of a command's `--help`: its synopsis, not the prose below it.
    static func synopsis(_ help: String) -> String {
        help.split(separator: "\n").filter { line in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("flywheel ") || trimmed.hasPrefix("[") || trimmed.hasPrefix("(")
        }.joined(separator: "\n")
    }

    /// The lines of the first fenced block after the line `heading` with the info string `language`.
    static func block(after heading: String, in text: String, language: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let headingIndex = lines.firstIndex(of: heading),
              let open = lines[headingIndex...].firstIndex(of: "```" + language),
              let close = lines[(open + 1)...].firstIndex(of: "```") else { return [] }
        return Array(lines[(open + 1)..<close])
    }

    @Test("the README is about 150 lines, and its command table lists every command, osc, midi and soak included")
    func shortWithEveryCommand() {
        let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 170, "the README has \(lines) lines")
        for command in Self.commands { #expect(Self.row("flywheel \(command)") != nil, "no row for flywheel \(command)") }
        #expect(Self.row("flywheeld") != nil)
        #expect(Self.readme.contains("## Supported boards"))
        #expect(Self.readme.contains("## Layout"))
    }

    @Test("each command's row names exactly the options its --help names", arguments: commands)
    func rowMatchesHelp(_ command: String) throws {
        let row = try #require(Self.row("flywheel \(command)"))
        let help = ToolRun.run([command, "--help"]).out
        let inHelp = Set(HelpOptions.options(in: Self.synopsis(help)))
        let inRow = Set(HelpOptions.options(in: row))
        #expect(inHelp == inRow, "only in --help: \(inHelp.subtracting(inRow).sorted()); only in the README: \(inRow.subtracting(inHelp).sorted())")
    }

    @Test("flywheeld's row names exactly the options flywheeld --help names")
    func daemonRowMatchesHelp() throws {
        let row = try #require(Self.row("flywheeld"))
        let help = ChildProcess.run(ChildProcess.product("flywheeld"), ["--help"]).out
        let usage = HelpOptions.paragraphs(help).first { $0.hasPrefix("Usage:") } ?? ""
        #expect(Set(HelpOptions.options(in: usage)) == Set(HelpOptions.options(in: row)))
    }

    @Test("the quick start is at most ten lines on the first screen, names udev/flywheel.json5, and runs: daemon, watch, then send in a second terminal that sets its own PATH")
    func quickStart() throws {
        let first = Self.block(after: "## Quick start", in: Self.readme, language: "sh")
        let paragraph = try #require(Self.readme.split(separator: "\n").first { $0.hasPrefix("In a second terminal") }.map(String.init))
        let second = Self.block(after: paragraph, in: Self.readme, language: "sh")
        let block = first + second
        #expect(!first.isEmpty && !second.isEmpty && block.count <= 10, "\(block)")
        // A second terminal has not run the first one's export.
        #expect(second.first?.hasPrefix("export PATH=") == true && first.first?.contains("export PATH=") == true, "\(second)")
        #expect(Self.readme.contains("swift.org") && Self.readme.contains("Debian 12"), "where Swift 6 comes from on Debian 12")
        let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "## Quick start"))
        #expect(heading < 20, "the quick start is not on the first screen")
        #expect(Self.readme.contains("[`udev/flywheel.json5`](udev/flywheel.json5)"))
        func arguments(_ program: String) throws -> [String] {
            let line = try #require(block.first { $0.hasPrefix(program + " ") || $0 == program }, "no \(program) line")
            let command = String(line.split(separator: "#")[0])
            return try #require(ShellWords.split(command)).dropFirst().filter { $0 != "&" }
        }
        // The daemon as the README starts it (its own socket, given to the clients as FLYWHEEL_SOCKET).
        let daemon = try DaemonProcess(try arguments("flywheeld"))
        defer { _ = daemon.stop() }
        let environment = ["FLYWHEEL_SOCKET=\(daemon.socketPath)"]
        let sent = ChildProcess.run(ChildProcess.product("flywheel"), try arguments("flywheel send"), environment: environment)
        #expect(sent.status == 0 && sent.out.contains(#""bpm":96"#), "\(sent.err)")
        #expect(sent.out.contains(#""duration":214"#), "the demo's scrub has no length: \(sent.out)")
        #expect(try arguments("flywheel watch") == ["watch"])
    }

    @Test("the music box's configuration passes --check-config (its devices, absent here, only warned about)")
    func musicBoxConfiguration() throws {
        let guide = try #require(RepositoryPaths.read(RepositoryPaths.path("hardware/MUSIC-BOX.md")))
        let configuration = Self.block(after: "## 1. The configuration", in: guide, language: "json5").joined(separator: "\n")
        #expect(configuration.contains("gpio:") && configuration.contains("powermate"))
        let path = DaemonConfigurationTests.write(configuration + "\n")
        defer { DaemonConfigurationCheckTests.remove(path) }
        let run = DaemonConfigurationCheckTests.check(path)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("\(path): the configuration is valid"))
        #expect(!run.err.contains("devices[") || run.err.contains("does not exist now"), "\(run.err)")
    }
}

/// Words of a simple shell command line (single quotes kept together, no expansions).
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var quoted = false
        var inWord = false
        for character in line {
            if character == "'" { quoted.toggle(); inWord = true; continue }
            if character == " " && !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
                continue
            }
            current.append(character)
            inWord = true
        }
        if inWord { words.append(current) }
        return quoted ? nil : words
    }
}
