import FlywheelCore
import FlywheelIO
import Testing

/// `flywheel soak` through a real flywheeld: a soak longer than one pass plays the pass again and
/// again (a scenario file lasts at most 10 minutes) and checks the count after every pass.
@Suite("flywheel soak")
struct SoakCommandTests {
    @Test("two passes of 6 s each: the tempo moved by twice the pass's truth, nothing lost, no gap")
    func passes() throws {
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["soak", "--minutes", "0.2", "--pass-minutes", "0.1", "--seed", "3", "--hardware", RepositoryPaths.path("hardware")])
        #expect(run.status == 0, "\(run.err)")
        let summary = try JSONParser.parse(Array(run.out.utf8))
        #expect(summary["passes"] == .int(2))
        #expect(summary["lost_detents"] == .int(0))
        #expect(summary["gaps"] == .int(0))
        #expect(summary["passed"] == .bool(true))
        #expect(summary["truth_detents"] == summary["counted_detents"])
    }

    @Test("a pass longer than a scenario file may last is refused")
    func passTooLong() {
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["soak", "--minutes", "20", "--pass-minutes", "11"])
        #expect(run.status != 0)
        #expect(run.err.contains("--pass-minutes must be above 0 and at most 8"))
    }
}
