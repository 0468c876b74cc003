import FlywheelCore
import Glibc
import Testing

/// `flywheel replay` and flywheeld agree on the scrub's length when nothing sets it (issue 34:
/// replay used 214 s and flywheeld 0 s, so the same scenario's first `scrub` line differed).
@Suite("flywheel replay and flywheeld: the scrub's default length", .serialized)
struct ScrubDefaultDaemonTests {
    /// A tap to the scrub mode and a slow turn on an ec11.
    static let scenario = "device ec11\nseed 2\npress\nhold 80ms\nrelease\nhold 300ms\nturn +3 at 4/s\nhold 2s\n"

    @Test("a scenario's scrub lines through replay and through the socket are equal, with neither given a length")
    func sameLength() throws {
        var template = Array("/tmp/flywheel-scrub-XXXXXX".utf8CString)
        let path = String(cString: mkdtemp(&template)!) + "/scrub.sim"
        RepositoryPaths.write(Self.scenario, to: path)
        let run = try ReplayAndSocket.run(path)
        let scrubs = run.replay.filter { $0.contains(#""class":"scrub""#) }
        #expect(!scrubs.isEmpty, "the scenario scrubs: \(run.replay)")
        #expect(ReplayMatchesSocketTests.normalisedStream(run.replay) == ReplayMatchesSocketTests.normalisedStream(run.socket))
    }

    @Test("the demo is 214 s long through both")
    func demo() {
        let replay = ToolRun.run(["replay", "demo", "--hardware", RepositoryPaths.path("hardware")])
        #expect(replay.status == 0, "\(replay.err)")
        let scrub = replay.out.split(separator: "\n").first { $0.contains(#""class":"scrub""#) }
        #expect(scrub?.contains(#""duration":214"#) == true, "\(scrub.map(String.init) ?? "no scrub")")
    }
}
