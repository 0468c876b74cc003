import FlywheelCore
import Glibc
import Testing
@testable import FlywheelDaemon

/// Running a scenario file: an unknown device is named with the file and its line.
@Suite("Scenario runs")
struct ScenarioRunTests {
    @Test("a .sim naming an unknown device reports the file and the device line")
    func unknownDevice() throws {
        var template = Array("/tmp/flywheel-sim-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let path = directory + "/unknown.sim"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = Array("# name: unknown\n\ndevice nosuchknob\nturn +2\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(path); rmdir(directory) }
        // Swift 6.0's #expect(throws:) returns nothing: the error is caught here to look into it.
        let error: ToolError? = {
            do { _ = try ScenarioRun.load(path, seed: nil, hardware: directory); return nil } catch let error as ToolError { return error } catch { return nil }
        }()
        #expect(error != nil, "expected a ToolError")
        #expect(error?.description.hasPrefix("\(path) line 3: the device 'nosuchknob' is unknown") == true)
    }
}
