import Testing
import FlywheelIO
@testable import FlywheelDaemon

@Suite("Profiles found from the program's location")
struct InstalledHardwareTests {
    @Test("a package's bin/ finds share/flywheel/hardware beside it, a checkout's .build finds hardware/")
    func folders() {
        let folders = ProfileLibrary.besideExecutable("/tmp/unpacked/usr/bin")
        #expect(folders.first == "/tmp/unpacked/usr/bin/../share/flywheel/hardware")
        #expect(folders.contains("/tmp/unpacked/usr/bin/../../hardware"))
        #expect(ProfileLibrary.besideExecutable(nil).isEmpty)
    }

    @Test("the search path uses the running program's folder, not argv[0]")
    func searchPath() throws {
        let folder = try #require(ExecutablePath.folder())
        #expect(ProfileLibrary.searchPath(explicit: nil, scenarioPath: nil).contains(folder + "/../share/flywheel/hardware"))
    }
}
