import Glibc
import Testing

/// `sudo flywheeld` by hand: the socket's folder (/run/flywheel) may not exist yet.
@Suite("flywheeld's runtime directory")
struct DaemonRuntimeDirectoryTests {
    @Test("flywheeld makes the missing folder of its socket (mode 0755) and serves there")
    func makesSocketFolder() throws {
        var template = Array("/tmp/flywheel-run-XXXXXX".utf8CString)
        let base = String(cString: mkdtemp(&template)!)
        let folder = base + "/flywheel"
        defer {
            rmdir(folder)
            rmdir(base)
        }
        let daemon = try DaemonProcess(["--no-devices"], socketPath: folder + "/flywheel.sock")
        let client = try TestClient(daemon.socketPath)
        #expect(client.next()?["class"]?.stringValue == "hello")
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o7777 == 0o755)
        #expect(daemon.stop() == 0)
    }
}
