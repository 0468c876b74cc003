import Glibc
import Testing

/// Every input in Tests/Golden decodes to exactly its `.expected.jsonl`.
@Suite("Golden replays")
struct GoldenReplayTests {
    static let directory = RepositoryPaths.path("Tests/Golden")

    static var inputs: [String] {
        RepositoryPaths.list(directory).filter {
            ($0.hasSuffix(".edges") || $0.hasSuffix(".evemu") || $0.hasSuffix(".vcd"))
        }
    }

    /// The header's `# name:` and the `args:` notes line.
    static func header(_ text: String) -> (name: String?, args: [String]?) {
        var name: String?
        var args: [String]?
        for line in text.split(separator: "\n").prefix(while: { $0.hasPrefix("#") || $0.hasPrefix("$") }) {
            if line.hasPrefix("# name: ") { name = String(line.dropFirst(8)) }
            if line.hasPrefix("# notes: args: ") {
                let rest = line.dropFirst(15)
                args = rest == "(none)" ? [] : rest.split(separator: " ").map(String.init)
            }
        }
        return (name, args)
    }

    @Test("there are golden replays, each with a name and args header")
    func present() throws {
        #expect(Self.inputs.count >= 5)
        for input in Self.inputs {
            let text = try #require(RepositoryPaths.read(Self.directory + "/" + input))
            let header = Self.header(text)
            #expect(header.name != nil, "\(input) has no '# name:' line")
            #expect(header.args != nil, "\(input) has no '# notes: args:' line")
        }
    }

    @Test("each input decodes to its expected output", arguments: inputs)
    func replay(_ input: String) throws {
        let path = Self.directory + "/" + input
        let text = try #require(RepositoryPaths.read(path))
        let args = try #require(Self.header(text).args)
        let run = ToolRun.run(["decode", path] + args)
        #expect(run.status == 0, "\(run.err)")
        let expectedPath = path[..<path.lastIndex(of: ".")!] + ".expected.jsonl"
        if getenv("FLYWHEEL_UPDATE_GOLDEN") != nil {
            RepositoryPaths.write(run.out, to: String(expectedPath))
        }
        let expected = try #require(RepositoryPaths.read(String(expectedPath)), "missing \(expectedPath)")
        #expect(run.out == expected)
    }
}

/// The README's picture of a flick is a golden file too: `flywheel plot` must still draw exactly it.
@Suite("Golden plot")
struct GoldenPlotTests {
    static let arguments = ["plot", "--flick", "30", "--from", "0", "--format", "svg"]

    @Test("Tests/Golden/flick.svg is what `flywheel plot --flick 30 --from 0 --format svg` draws")
    func flick() throws {
        let path = RepositoryPaths.path("Tests/Golden/flick.svg")
        let run = ToolRun.run(Self.arguments)
        #expect(run.status == 0)
        if getenv("FLYWHEEL_UPDATE_GOLDEN") != nil { RepositoryPaths.write(run.out, to: path) }
        // Two statements: Swift 6.0's #expect cannot hold a #require (its call is put in a non-throwing autoclosure).
        let expected = try #require(RepositoryPaths.read(path))
        #expect(run.out == expected)
    }
}
