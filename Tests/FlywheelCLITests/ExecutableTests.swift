import FlywheelIO
import Testing

/// The real executables, run as child processes.
@Suite("Executables")
struct ExecutableTests {
    @Test("flywheel decode reads standard input and writes JSON to standard output")
    func decodeStdin() throws {
        let edges = try #require(RepositoryPaths.read(RepositoryPaths.path("Tests/Golden/ec11-bounce.edges")))
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["decode", "-", "--summary"], input: edges)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == #"{"quarter_steps":8,"detents":2,"valid":22,"invalid":0,"steps_per_detent":4}"# + "\n")
    }

    @Test("flywheel reports errors on standard error with a non-zero exit status")
    func errorExit() {
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["decode", "/nonexistent.edges"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err == "flywheel: cannot open /nonexistent.edges: No such file or directory (ENOENT).\n")
        // In a child process: --verbose sets the process's own switch, which the suites here share.
        let verbose = ChildProcess.run(ChildProcess.product("flywheel"), ["--verbose", "decode", "/nonexistent.edges"])
        #expect(verbose.err == "flywheel: open on /nonexistent.edges failed: No such file or directory (ENOENT).\n")
    }

    @Test("flywheel --version names the libgpiod it runs with and the API it was built for")
    func versionNamesGPIOAPI() {
        let run = ChildProcess.run(ChildProcess.product("flywheel"), ["--version"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("flywheel ") && run.out.hasSuffix(", v\(LibraryVersions.gpiodAPI) API)\n"), "\(run.out)")
        #expect(run.out.contains("(libgpiod \(LibraryVersions.gpiod), "), "\(run.out)")
    }

    @Test("flywheeld prints its usage and refuses unknown options")
    func daemonUsage() {
        let help = ChildProcess.run(ChildProcess.product("flywheeld"), ["--help"])
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("flywheeld — "))
        let bad = ChildProcess.run(ChildProcess.product("flywheeld"), ["--frobnicate"])
        #expect(bad.status == 2)
        #expect(bad.err == "flywheeld: there is no option --frobnicate; 'flywheeld --help' lists the options.\n")
    }
}
