import Glibc
import Testing

/// The systemd units in udev/ pass `systemd-analyze verify` (where the machine has it).
@Suite("systemd units")
struct SystemdUnitTests {
    static let analyzer = "/usr/bin/systemd-analyze"
    static let units = ["flywheeld.service", "flywheeld.socket", "flywheel-mpd.service"]

    @Test("flywheeld.service, flywheeld.socket and flywheel-mpd.service verify cleanly",
          .enabled(if: access(analyzer, X_OK) == 0, "systemd-analyze is not installed"))
    func verify() throws {
        var template = Array("/tmp/flywheel-units-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            for name in Self.units { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        for name in Self.units {
            var text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/" + name)))
            // verify checks that ExecStart exists: point it at the binary just built.
            text = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasPrefix("ExecStart=") ? "ExecStart=" + ChildProcess.product("flywheeld") : String($0)
            }.joined(separator: "\n")
            RepositoryPaths.write(text, to: directory + "/" + name)
        }
        let run = ChildProcess.run(Self.analyzer, ["verify"] + Self.units.map { directory + "/" + $0 })
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("flywheel"), "\(run.err)")
    }

    @Test("the service is Type=notify, unprivileged and sandboxed as documented")
    func hardening() throws {
        let text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheeld.service")))
        #expect(text.contains("ExecStart=/usr/bin/flywheeld\n"), "the package installs the daemon in /usr/bin")
        for line in ["Type=notify", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                     "RestrictAddressFamilies=AF_UNIX", "DevicePolicy=closed", "DeviceAllow=char-input rw",
                     "DeviceAllow=char-gpiochip rw", "SupplementaryGroups=input gpio", "ReadOnlyPaths=/tmp /var/tmp /dev/shm -/dev/mqueue"] {
            #expect(text.contains(line + "\n"), "missing \(line)")
        }
        // systemd deletes a service's runtime directory when it stops: with /run/flywheel as one, a
        // stop would delete the socket flywheeld.socket listens on, and socket activation with it.
        #expect(!text.contains("\nRuntimeDirectory="), "/run/flywheel belongs to flywheeld.socket")
    }

    @Test("flywheel-mpd.service runs the installed bridge with the service's sandbox")
    func mpdHardening() throws {
        let service = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheeld.service")))
        let mpd = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-mpd.service")))
        #expect(mpd.contains("ExecStart=/usr/bin/flywheel mpd "))
        let sandbox = ["DynamicUser=", "NoNewPrivileges=", "Protect", "Private", "Restrict", "ReadOnlyPaths=", "DevicePolicy=",
                       "LockPersonality=", "MemoryDenyWriteExecute=", "SystemCallArchitectures="]
        for line in service.split(separator: "\n") where sandbox.contains(where: { line.hasPrefix($0) }) {
            #expect(mpd.contains(line + "\n"), "flywheel-mpd.service lacks \(line)")
        }
    }
}
