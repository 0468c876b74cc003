import FlywheelCore
import Glibc
import Testing

/// `--check-config` and a real start refuse the same configurations with the same sentences, each
/// naming the file, the line and the key. (A reload refusing them: ScenarioClientsTests, in process.)
@Suite("flywheeld configuration check", .serialized)
struct DaemonConfigurationCheckTests {
    static let hardware = RepositoryPaths.path("hardware")

    static func check(_ path: String, _ extra: [String] = []) -> ChildProcess {
        ChildProcess.run(ChildProcess.product("flywheeld"), ["--config", path, "--check-config", "--hardware", hardware] + extra)
    }

    /// Starts flywheeld on `path` (devices from a folder of the test's own); `--socket` in that
    /// folder unless `socketOption` is false.
    static func start(_ path: String, _ extra: [String] = [], socketOption: Bool = true) throws -> StartAttempt {
        try StartAttempt.run(["--config", path] + extra, socketOption: socketOption)
    }

    static func remove(_ path: String) {
        let directory = String(path[..<path.lastIndex(of: "/")!])
        for name in RepositoryPaths.list(directory) { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    @Test("a socket path under a file: --check-config and starting both refuse it at socket.path's line, making nothing")
    func socketFolderIsAFile() throws {
        let path = DaemonConfigurationTests.write("{\n  // where clients connect\n  socket: { path: 'SOCKET' },\n}\n")
        defer { Self.remove(path) }
        let directory = String(path[..<path.lastIndex(of: "/")!])
        RepositoryPaths.write("not a folder\n", to: directory + "/plain")
        RepositoryPaths.write(
            "{\n  // where clients connect\n  socket: { path: '\(directory)/plain/flywheel.sock' },\n}\n", to: path)
        let expected = "flywheeld: \(path) line 3: key 'socket.path' names a socket flywheeld cannot make: \(directory)/plain is not a directory.\n"
        let checked = Self.check(path)
        #expect(checked.status == 1)
        #expect(checked.err == expected)
        let started = try Self.start(path, ["--no-devices"], socketOption: false)
        #expect(!started.served)
        #expect(started.status == 1)
        #expect(started.err == expected)
        #expect(RepositoryPaths.list(directory).sorted() == ["flywheel.json5", "plain"])
        // --socket outranks the file: then its path is the one checked, and named as the option.
        let outranked = Self.check(path, ["--socket", directory + "/plain/other.sock"])
        #expect(outranked.err == "flywheeld: --socket \(directory)/plain/other.sock: \(directory)/plain is not a directory.\n")
    }

    @Test("a profile typo (powermat): --check-config and starting refuse it with the same sentence at devices[0].profile's line")
    func profileTypo() throws {
        let path = DaemonConfigurationTests.write(
            "{\n  devices: [\n    { name: 'jog', profile: 'powermat', path: '/dev/input/event9', control: 'scrub' },\n  ],\n}\n")
        defer { Self.remove(path) }
        let checked = Self.check(path)
        #expect(checked.status == 1)
        #expect(checked.err.hasPrefix("flywheeld: \(path) line 3: key 'devices[0].profile' names no known device profile: 'powermat' (did you mean 'powermate'?); "))
        let started = try Self.start(path)
        #expect(!started.served)
        #expect(started.status == 1)
        #expect(started.err == checked.err)
    }

    @Test("a socket group that does not exist: --check-config and starting name the file, line and key alike")
    func missingGroup() throws {
        let path = DaemonConfigurationTests.write("{\n  controls: { tempo: { bpm: 96 } },\n  socket: { group: 'nogroupxyz', mode: '0660' },\n}\n")
        defer { Self.remove(path) }
        let expected = "flywheeld: \(path) line 3: key 'socket.group' names the group 'nogroupxyz', which does not exist on this system.\n"
        let checked = Self.check(path)
        #expect(checked.status == 1)
        #expect(checked.err == expected)
        let started = try Self.start(path, ["--no-devices"])
        #expect(!started.served)
        #expect(started.status == 1)
        #expect(started.err == expected)
    }
}
