import Testing

/// Bundled scenarios go by name wherever a `.sim` is taken (only `demo` did, and only in flywheeld).
@Suite("Scenarios by name")
struct ScenarioNameTests {
    static let flick = RepositoryPaths.path("hardware/scenarios/flick.sim")

    @Test("flywheel replay flick is flywheel replay hardware/scenarios/flick.sim")
    func replay() {
        let byName = ToolRun.run(["replay", "flick", "--hardware", RepositoryPaths.path("hardware")])
        let byPath = ToolRun.run(["replay", Self.flick])
        #expect(byName.status == 0, "\(byName.err)")
        #expect(!byName.out.isEmpty && byName.out == byPath.out)
    }

    @Test("flywheel sim bouncy-knob.sim and bouncy-knob are the file")
    func sim() {
        let file = ToolRun.run(["sim", RepositoryPaths.path("hardware/scenarios/bouncy-knob.sim"), "--truth"])
        for name in ["bouncy-knob", "bouncy-knob.sim"] {
            let run = ToolRun.run(["sim", name, "--truth", "--hardware", RepositoryPaths.path("hardware")])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out == file.out && !file.out.isEmpty)
        }
    }

    @Test("a name that is not bundled lists the names that are")
    func unknownName() {
        let run = ToolRun.run(["replay", "flik", "--hardware", RepositoryPaths.path("hardware")])
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("flywheel: 'flik' is neither a file nor a bundled scenario (they are bouncy-knob, demo, flick, "), "\(run.err)")
        #expect(run.err.hasSuffix("; give a .sim file's path or one of those names.\n"))
    }

    @Test("a path is a path: a missing one is the system's error, not a scenario lookup")
    func pathsStayPaths() {
        let run = ToolRun.run(["replay", "/nonexistent/flick.sim"])
        #expect(run.status == 1)
        #expect(run.err.contains("/nonexistent/flick.sim") && !run.err.contains("bundled"), "\(run.err)")
    }
}
