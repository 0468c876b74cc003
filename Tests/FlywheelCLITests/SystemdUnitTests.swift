import Glibc
import Testing

/// The systemd units in udev/ pass `systemd-analyze verify` (where the machine has it).
@Suite("systemd units")
struct SystemdUnitTests {
    static let analyzer = "/usr/bin/systemd-analyze"

    @Test("flywheeld.service and flywheeld.socket verify cleanly",
          .enabled(if: access(analyzer, X_OK) == 0, "systemd-analyze is not installed"))
    func verify() throws {
        var template = Array("/tmp/flywheel-units-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            for name in ["flywheeld.service", "flywheeld.socket"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        for name in ["flywheeld.service", "flywheeld.socket"] {
            var text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/" + name)))
            // verify checks that ExecStart exists: point it at the binary just built.
            text = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasPrefix("ExecStart=") ? "ExecStart=" + ChildProcess.product("flywheeld") : String($0)
            }.joined(separator: "\n")
            RepositoryPaths.write(text, to: directory + "/" + name)
        }
        let run = ChildProcess.run(Self.analyzer, ["verify", directory + "/flywheeld.service", directory + "/flywheeld.socket"])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("flywheeld."), "\(run.err)")
    }

    @Test("the service is Type=notify, unprivileged and sandboxed as documented")
    func hardening() throws {
        let text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheeld.service")))
        for line in ["Type=notify", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                     "RestrictAddressFamilies=AF_UNIX", "DevicePolicy=closed", "DeviceAllow=char-input rw",
                     "DeviceAllow=char-gpiochip rw", "RuntimeDirectory=flywheel", "SupplementaryGroups=input gpio"] {
            #expect(text.contains(line + "\n"), "missing \(line)")
        }
    }
}
