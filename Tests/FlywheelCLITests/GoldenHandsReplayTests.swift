import Glibc
import Testing

/// The hands suite as golden replays: every scripted gesture in Tests/Golden/hands (a `.sim`
/// scenario for a knob, an `.evemu` recording for a touch panel or strip) runs through
/// `flywheel replay` with its header's `args:` and must print exactly its `.expected.jsonl`.
/// What each must show, and why, is in its header and in Tests/Golden/README.md.
@Suite("Golden hands replays")
struct GoldenHandsReplayTests {
    static let directory = RepositoryPaths.path("Tests/Golden/hands")
    /// The repository's profiles, named so the run does not depend on the working directory (a
    /// test-only profile beside a scenario is found there too).
    static let hardware = ["--hardware", RepositoryPaths.path("hardware")]

    static var inputs: [String] {
        RepositoryPaths.list(directory).filter { $0.hasSuffix(".sim") || $0.hasSuffix(".evemu") }
    }

    /// The knob scenarios played on the tempo alone (args exactly `--control tempo`).
    static var tempoScenarios: [String] {
        inputs.filter { input in
            input.hasSuffix(".sim") && RepositoryPaths.read(directory + "/" + input).flatMap(arguments) == ["--control", "tempo"]
        }
    }

    /// The header's args, a `./NAME` argument taken as a file beside the input.
    static func arguments(_ text: String) -> [String]? {
        GoldenReplayTests.header(text).args?.map { $0.hasPrefix("./") ? directory + "/" + $0.dropFirst(2) : $0 }
    }

    /// `flywheel replay` of one input, the input's path (the checkout's location, in the device's
    /// `added` message) replaced by its name.
    static func replay(_ input: String) throws -> ToolRun {
        let path = directory + "/" + input
        let text = try #require(RepositoryPaths.read(path))
        let args = try #require(arguments(text), "\(input) has no '# notes: args:' line")
        var run = ToolRun.run(["replay", path] + hardware + args)
        run.out = run.out.replacing(path, with: input)
        return run
    }

    @Test("there are hands replays for every device kind, each with a name and args header")
    func present() throws {
        for kind in ["ec11-", "ec11e-30-", "one-step-", "powermate-", "shuttlexpress-", "surface-dial-", "panel-", "strip-"] {
            #expect(Self.inputs.contains { $0.hasPrefix(kind) }, "no hands replay for \(kind)…")
        }
        for input in Self.inputs {
            let text = try #require(RepositoryPaths.read(Self.directory + "/" + input))
            #expect(GoldenReplayTests.header(text).name != nil, "\(input) has no '# name:' line")
            #expect(Self.arguments(text) != nil, "\(input) has no '# notes: args:' line")
        }
    }

    @Test("each gesture replays to its expected messages", arguments: inputs)
    func replay(_ input: String) throws {
        let run = try Self.replay(input)
        #expect(run.status == 0, "\(run.err)")
        let expectedPath = Self.directory + "/" + input[..<input.lastIndex(of: ".")!] + ".expected.jsonl"
        if getenv("FLYWHEEL_UPDATE_GOLDEN") != nil { RepositoryPaths.write(run.out, to: expectedPath) }
        let expected = try #require(RepositoryPaths.read(expectedPath), "missing \(expectedPath)")
        #expect(run.out == expected)
    }

    /// Slow knob gestures on the tempo (args exactly `--control tempo`) rest on the simulator's
    /// truth: the last tempo message is 120 BPM plus the net detents the hand turned, computed by
    /// `flywheel sim --truth`, not read from the expected file.
    @Test("a slow gesture on the tempo ends on the simulator's truth", arguments: tempoScenarios)
    func truth(_ input: String) throws {
        let truth = ToolRun.run(["sim", Self.directory + "/" + input, "--truth"] + Self.hardware)
        let detents = try #require(Int(truth.out.filter { !$0.isWhitespace }), "\(truth.out) \(truth.err)")
        let last = try #require(try Self.replay(input).out.split(separator: "\n").last { $0.contains(#""class":"tempo""#) })
        #expect(last.contains(#""bpm":\#(120 + detents),"#) && last.contains(#""phase":"settled""#), "\(input): \(last)")
    }
}
