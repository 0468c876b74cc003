import FlywheelCore
import FlywheelIO
import Glibc
import Testing
@testable import FlywheelDaemon

/// The configuration file: only a regular file of bounded size, never a hang, never the defaults
/// for an empty file.
@Suite("Configuration file")
struct ConfigurationFileTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/flywheel-config-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    static func write(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test("a FIFO in the configuration's place is refused at once, not waited on")
    func fifo() throws {
        let directory = Self.temporaryDirectory()
        let path = directory + "/flywheel.json5"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path); rmdir(directory) }
        // Swift 6.0's #expect(throws:) returns nothing: the error is caught here to look into it.
        let error: FileReadError? = {
            do { _ = try ConfigurationFile(path: path).load(); return nil } catch let error as FileReadError { return error } catch { return nil }
        }()
        #expect(error != nil, "expected a FileReadError")
        #expect(error == .notRegular(path: path))
    }

    @Test("a link to /dev/zero is refused, not read forever")
    func deviceLink() throws {
        let directory = Self.temporaryDirectory()
        let path = directory + "/flywheel.json5"
        #expect(symlink("/dev/zero", path) == 0)
        defer { unlink(path); rmdir(directory) }
        // Swift 6.0's #expect(throws:) returns nothing: the error is caught here to look into it.
        let error: FileReadError? = {
            do { _ = try ConfigurationFile(path: path).load(); return nil } catch let error as FileReadError { return error } catch { return nil }
        }()
        #expect(error != nil, "expected a FileReadError")
        #expect(error?.description.contains("not a regular file") == true)
    }

    @Test("a file over the limit is refused with the limit named")
    func tooLarge() throws {
        let directory = Self.temporaryDirectory()
        let path = directory + "/flywheel.json5"
        Self.write(path, "{" + String(repeating: " ", count: ConfigurationFile.limitBytes) + "}")
        defer { unlink(path); rmdir(directory) }
        // Swift 6.0's #expect(throws:) returns nothing: the error is caught here to look into it.
        let error: FileReadError? = {
            do { _ = try ConfigurationFile(path: path).load(); return nil } catch let error as FileReadError { return error } catch { return nil }
        }()
        #expect(error != nil, "expected a FileReadError")
        #expect(error == .tooLarge(path: path, limitBytes: ConfigurationFile.limitBytes))
    }

    @Test("an empty file (a rewrite in progress) is an error naming the file; {} is the defaults")
    func empty() throws {
        let directory = Self.temporaryDirectory()
        let path = directory + "/flywheel.json5"
        defer { unlink(path); rmdir(directory) }
        Self.write(path, "")
        // Swift 6.0's #expect(throws:) returns nothing: the error is caught here to look into it.
        let error: FileLineError? = {
            do { _ = try ConfigurationFile(path: path).load(); return nil } catch let error as FileLineError { return error } catch { return nil }
        }()
        #expect(error != nil, "expected a FileLineError")
        #expect(error?.description.contains(path) == true)
        Self.write(path, "// comments only\n")
        #expect(throws: FileLineError.self) { _ = try ConfigurationFile(path: path).load() }
        Self.write(path, "{}")
        #expect(try ConfigurationFile(path: path).load().maxClients == FlywheelConfiguration().maxClients)
    }

    @Test("--check-config: an absent default path is reported as absent, an unknown group and profile as errors")
    func check() throws {
        let absent = ConfigurationFile(path: nil)
        if !absent.isPresent {
            let report = ConfigurationCheck.report(for: absent, profiles: ProfileLibrary(directories: []), defaultSocketPath: "/tmp/flywheel.sock")
            #expect(report.text.contains("does not exist"))
            #expect(!report.text.contains("valid"))
        }
        let directory = Self.temporaryDirectory()
        let path = directory + "/flywheel.json5"
        defer { unlink(path); rmdir(directory) }
        Self.write(path, "{ socket: { group: \"no-such-group-flywheel\" }, devices: [{ profile: \"powermat\", path: \"/dev/input/event9\" }] }")
        let configuration = try ConfigurationFile(path: path).load()
        let problems = ConfigurationCheck.problems(
            in: configuration, socket: .passed, profileProblem: { $0 == "powermate" ? nil : "names no known device profile '\($0)'" }
        ).map(\.description)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("socket.group") && $0.contains("no-such-group-flywheel") })
        #expect(problems.contains { $0.contains("devices[0].profile") && $0.contains("powermat") })
        let report = ConfigurationCheck.report(
            for: ConfigurationFile(path: path), profiles: ProfileLibrary(directories: []), defaultSocketPath: directory + "/flywheel.sock")
        #expect(!report.valid)
    }

    @Test("--max-clients from the command line outranks the file, also for a reloaded file")
    func commandLineOutranks() throws {
        var configuration = FlywheelConfiguration()
        configuration.maxClients = 256
        let settings = CommandLineSettings(maxClients: 3)
        #expect(settings.clientLimit(under: configuration) == 3)
        configuration.maxClients = 100
        #expect(settings.clientLimit(under: configuration) == 3)
        #expect(CommandLineSettings().clientLimit(under: configuration) == 100)
    }
}
