import FlywheelCore
import FlywheelIO
import Glibc
import Testing
@testable import FlywheelDaemon

/// What the system must give a configuration (group, socket folder, profiles), each problem
/// naming the file, the line and the key.
@Suite("Configuration check")
struct ConfigurationCheckTests {
    static let hardware: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/hardware"
    }()

    static func load(_ text: String) throws -> (path: String, configuration: FlywheelConfiguration) {
        let directory = ConfigurationFileTests.temporaryDirectory()
        let path = directory + "/flywheel.json5"
        ConfigurationFileTests.write(path, text)
        return (path, try ConfigurationFile(path: path).load())
    }

    static func remove(_ path: String) {
        let directory = String(path[..<path.lastIndex(of: "/")!])
        for name in (try? FileSystem.listDirectory(directory)) ?? [] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    @Test("a socket group that does not exist names the file, the line and the key")
    func group() throws {
        let (path, configuration) = try Self.load("{\n  // the socket\n  socket: { group: 'nogroupxyz' },\n}\n")
        defer { Self.remove(path) }
        let problems = ConfigurationCheck.problems(in: configuration, socket: .passed, groupExists: { _ in false }, profileProblem: { _ in nil })
        #expect(problems.map(\.description) == ["\(path) line 3: key 'socket.group' names the group 'nogroupxyz', which does not exist on this system."])
    }

    @Test("an unknown profile names the line of devices[N].profile and the closest known profile")
    func profile() throws {
        let (path, configuration) = try Self.load("{\n  devices: [\n    { name: 'a', profile: 'ec11' },\n    { name: 'jog',\n      profile: 'powermat', path: '/dev/input/event9' },\n  ],\n}\n")
        defer { Self.remove(path) }
        let library = ProfileLibrary(directories: [Self.hardware])
        let problems = ConfigurationCheck.problems(in: configuration, socket: .passed, groupExists: { _ in true }, profileProblem: { library.problem(naming: $0) })
        #expect(problems.count == 1)
        #expect(problems.first?.description.hasPrefix("\(path) line 5: key 'devices[1].profile' names no known device profile: 'powermat' (did you mean 'powermate'?); the profiles are ") == true)
        #expect(library.problem(naming: "xyzzy")?.contains("did you mean") == false)
    }

    @Test("GPIO lines with a profile that is not a GPIO encoder are refused at devices[N].gpio's line")
    func gpioWithUSBProfile() throws {
        let (path, configuration) = try Self.load(
            "{\n  devices: [\n    { profile: 'ec11', gpio: { chip: 'gpiochip0', a: 17, b: 27 } },\n    { profile: 'powermate',\n      gpio: { chip: 'gpiochip0', a: 5, b: 6 } },\n  ],\n}\n")
        defer { Self.remove(path) }
        let library = ProfileLibrary(directories: [Self.hardware])
        let problems = ConfigurationCheck.problems(in: configuration, socket: .passed, profiles: library).map(\.description)
        #expect(problems == [
            "\(path) line 5: key 'devices[1].gpio' gives GPIO lines, but the profile 'powermate' is not a GPIO encoder (it reports powermate-dial); name a GPIO profile such as \"ec11\", or give 'path' for an evdev device."
        ])
    }

    @Test("the socket's folder is checked where starting would make it: the file's path, --socket's, or the default")
    func socket() throws {
        let (path, configuration) = try Self.load("{\n  socket: {\n    path: '/dev/null/flywheel.sock',\n  },\n}\n")
        defer { Self.remove(path) }
        func problems(_ socket: ConfigurationCheck.SocketChoice) -> [String] {
            ConfigurationCheck.problems(in: configuration, socket: socket, groupExists: { _ in true }, profileProblem: { _ in nil }).map(\.description)
        }
        let chosen = ConfigurationCheck.SocketChoice(commandLine: nil, configuration: configuration, fallback: "/tmp/unused.sock")
        #expect(chosen == .configured("/dev/null/flywheel.sock"))
        #expect(problems(chosen) == ["\(path) line 3: key 'socket.path' names a socket flywheeld cannot make: /dev/null is not a directory."])
        let outranked = ConfigurationCheck.SocketChoice(commandLine: "/dev/null/x.sock", configuration: configuration, fallback: "/tmp/unused.sock")
        #expect(problems(outranked) == ["--socket /dev/null/x.sock: /dev/null is not a directory."])
        #expect(problems(.fallback("/dev/null/y.sock")) == ["the default socket path /dev/null/y.sock: /dev/null is not a directory."])
        #expect(problems(.passed).isEmpty)
    }

    @Test("the edit distance behind the profile hint")
    func editDistance() {
        #expect(ProfileLibrary.editDistance("powermat", "powermate") == 1)
        #expect(ProfileLibrary.editDistance("", "ec11") == 4)
        #expect(ProfileLibrary.editDistance("shuttlexpres", "shuttlexpress") == 1)
        #expect(ProfileLibrary.editDistance("ec11", "ec11") == 0)
    }
}
