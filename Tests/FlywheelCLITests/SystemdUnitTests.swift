@testable import FlywheelCLI
import FlywheelIO
import Glibc
import Testing

/// The systemd units in udev/ pass `systemd-analyze verify` (where the machine has it).
@Suite("systemd units")
struct SystemdUnitTests {
    static let analyzer = "/usr/bin/systemd-analyze"
    /// The unit files in udev/, and the name each is verified as (a template as one of its instances;
    /// systemd-analyze 252 cannot verify a file whose name has a colon, so the OSC instance is a host).
    static let units = [
        ("flywheeld.service", "flywheeld.service"), ("flywheeld.socket", "flywheeld.socket"),
        ("flywheel-mpd.service", "flywheel-mpd.service"), ("flywheel-osc@.service", "flywheel-osc@localhost.service"),
        ("flywheel-midi@.service", "flywheel-midi@dev-snd-midiC1D0.service"), ("flywheel-mqtt@.service", "flywheel-mqtt@localhost.service"),
        ("flywheel-alsa@.service", "flywheel-alsa@0.service"), ("flywheel-keys.service", "flywheel-keys.service"),
        ("flywheel-volumio@.service", "flywheel-volumio@localhost.service"), ("flywheel-moode@.service", "flywheel-moode@localhost.service"),
        ("flywheel-web.service", "flywheel-web.service"),
    ]

    @Test("every unit in udev/ (flywheeld's, and the MPD, OSC, MIDI, MQTT, ALSA, keys, Volumio, moOde and web bridges') verifies cleanly",
          .enabled(if: access(analyzer, X_OK) == 0, "systemd-analyze is not installed"))
    func verify() throws {
        var template = Array("/tmp/flywheel-units-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer {
            for (_, name) in Self.units { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        for (file, name) in Self.units {
            var text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/" + file)))
            // verify checks that ExecStart exists: point it at the binary just built.
            text = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasPrefix("ExecStart=") ? "ExecStart=" + ChildProcess.product("flywheeld") : String($0)
            }.joined(separator: "\n")
            RepositoryPaths.write(text, to: directory + "/" + name)
        }
        let run = ChildProcess.run(Self.analyzer, ["verify"] + Self.units.map { directory + "/" + $0.1 })
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("flywheel"), "\(run.err)")
    }

    @Test("the PipeWire bridge's user unit verifies cleanly in a user's manager",
          .enabled(if: access(analyzer, X_OK) == 0, "systemd-analyze is not installed"))
    func verifyUserUnit() throws {
        // A user manager needs XDG_RUNTIME_DIR: a private one, with the unit beside it.
        let directory = FaultyPeer.temporaryDirectory()
        mkdir(directory + "/run", 0o700)
        let text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-pipewire.service")))
        let unit = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasPrefix("ExecStart=") ? "ExecStart=" + ChildProcess.product("flywheel") : String($0)
        }.joined(separator: "\n")
        RepositoryPaths.write(unit, to: directory + "/flywheel-pipewire.service")
        let run = ChildProcess.run(Self.analyzer, ["--user", "verify", directory + "/flywheel-pipewire.service"],
                                   environment: ["XDG_RUNTIME_DIR=\(directory)/run", "HOME=\(directory)", "PATH=/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("flywheel"), "\(run.err)")
    }

    @Test("the PipeWire bridge's user unit runs the installed bridge in the user's session after PipeWire and WirePlumber, with the sandbox a user unit can have")
    func pipewireUserUnit() throws {
        let text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-pipewire.service")))
        for line in ["ExecStart=/usr/bin/flywheel pipewire --socket /run/flywheel/flywheel.sock $FLYWHEEL_PIPEWIRE_OPTIONS",
                     "ConditionUser=!root", "Wants=pipewire.service wireplumber.service", "After=pipewire.service wireplumber.service",
                     "EnvironmentFile=-%E/flywheel/pipewire.env", "Restart=on-failure", "WantedBy=default.target",
                     // flywheeld's lines that a user's manager applies without privileges (seccomp and no_new_privs).
                     "NoNewPrivileges=yes", "RestrictAddressFamilies=AF_UNIX", "RestrictNamespaces=yes", "LockPersonality=yes",
                     "MemoryDenyWriteExecute=yes", "SystemCallArchitectures=native"] {
            #expect(text.contains("\n" + line + "\n"), "missing \(line)")
        }
        // What only the system manager can do: a user unit with these would fail to start, or run
        // as another user than the one whose PipeWire it drives.
        for prefix in ["DynamicUser=", "User=", "SupplementaryGroups=", "DeviceAllow=", "PrivateNetwork=", "ProtectSystem=", "ProtectHome=", "PrivateTmp="] {
            #expect(!text.contains("\n" + prefix), "a user unit with \(prefix)")
        }
        // Bound to PipeWire, it would stop with it; the bridge retries while PipeWire is away instead.
        #expect(!text.contains("\nBindsTo=") && !text.contains("\nRequires="))
    }

    @Test("the service is Type=notify, unprivileged and sandboxed as documented")
    func hardening() throws {
        let text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheeld.service")))
        #expect(text.contains("ExecStart=/usr/bin/flywheeld\n"), "the package installs the daemon in /usr/bin")
        for line in ["Type=notify", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                     "RestrictAddressFamilies=AF_UNIX", "DevicePolicy=closed", "DeviceAllow=char-input rw",
                     "DeviceAllow=char-gpiochip rw", "SupplementaryGroups=input gpio", "ReadOnlyPaths=/tmp /var/tmp /dev/shm -/dev/mqueue", "StateDirectory=flywheel"] {
            #expect(text.contains(line + "\n"), "missing \(line)")
        }
        // systemd deletes a service's runtime directory when it stops: with /run/flywheel as one, a
        // stop would delete the socket flywheeld.socket listens on, and socket activation with it.
        #expect(!text.contains("\nRuntimeDirectory="), "/run/flywheel belongs to flywheeld.socket")
    }

    /// Each bridge's unit, what it runs, and the network lines it has instead of flywheeld's
    /// `PrivateNetwork=yes` and `RestrictAddressFamilies=AF_UNIX` when it needs the network.
    static let bridges: [(unit: String, command: String, network: [String])] = [
        ("flywheel-mpd.service", "ExecStart=/usr/bin/flywheel mpd ", []),
        ("flywheel-osc@.service", "ExecStart=/usr/bin/flywheel osc --socket /run/flywheel/flywheel.sock --to %i ",
         ["RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"]),
        ("flywheel-midi@.service", "ExecStart=/usr/bin/flywheel midi --socket /run/flywheel/flywheel.sock --device %f ", []),
        ("flywheel-mqtt@.service", "ExecStart=/usr/bin/flywheel mqtt --socket /run/flywheel/flywheel.sock --broker %i ",
         ["RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"]),
        ("flywheel-alsa@.service", "ExecStart=/usr/bin/flywheel alsa --socket /run/flywheel/flywheel.sock --card %i ", []),
        ("flywheel-keys.service", "ExecStart=/usr/bin/flywheel keys --socket /run/flywheel/flywheel.sock ", []),
        ("flywheel-volumio@.service", "ExecStart=/usr/bin/flywheel volumio --socket /run/flywheel/flywheel.sock --host %i ",
         ["RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"]),
        ("flywheel-moode@.service", "ExecStart=/usr/bin/flywheel moode --socket /run/flywheel/flywheel.sock --host %i ",
         ["RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"]),
        ("flywheel-web.service", "ExecStart=/usr/bin/websocketd --address=127.0.0.1 --port=8080 --staticdir=/usr/share/flywheel/web /usr/bin/flywheel connect ",
         ["RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "IPAddressAllow=localhost", "IPAddressDeny=any"]),
    ]

    @Test("each bridge's unit runs the installed bridge with flywheeld's sandbox, the network only where it needs it (the web feed: loopback only)")
    func bridgeHardening() throws {
        let service = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheeld.service")))
        let sandbox = ["DynamicUser=", "NoNewPrivileges=", "Protect", "Private", "Restrict", "ReadOnlyPaths=", "DevicePolicy=",
                       "LockPersonality=", "MemoryDenyWriteExecute=", "SystemCallArchitectures="]
        for bridge in Self.bridges {
            let text = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/" + bridge.unit)))
            #expect(text.contains("\n" + bridge.command), "\(bridge.unit) does not run \(bridge.command)")
            #expect(!text.contains("\nDeviceAllow=char-input") && !text.contains("\nDeviceAllow=char-gpiochip"), "\(bridge.unit) reaches input devices")
            let networkLines = ["PrivateNetwork=yes", "RestrictAddressFamilies=AF_UNIX"]
            for line in service.split(separator: "\n") where sandbox.contains(where: { line.hasPrefix($0) }) {
                if !bridge.network.isEmpty && networkLines.contains(String(line)) {
                    #expect(!text.contains("\n" + line + "\n"), "\(bridge.unit) needs the network but has \(line)")
                } else {
                    #expect(text.contains("\n" + line + "\n"), "\(bridge.unit) lacks \(line)")
                }
            }
            for line in bridge.network { #expect(text.contains("\n" + line + "\n"), "\(bridge.unit) lacks \(line)") }
        }
        // The MIDI bridge opens the raw MIDI port named by its instance, and nothing but sound devices.
        let midi = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-midi@.service")))
        #expect(midi.contains("\nDeviceAllow=char-alsa rw\n") && midi.contains("\nSupplementaryGroups=audio\n"))
        // The ALSA bridge opens the card's control device (/dev/snd/controlC*), a sound device too.
        let alsa = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-alsa@.service")))
        #expect(alsa.contains("\nDeviceAllow=char-alsa rw\n") && alsa.contains("\nSupplementaryGroups=audio\n"))
    }

    @Test("the keys bridge's unit reaches /dev/uinput alone, through the uinput group the udev rules give it, with a default map")
    func keysUnit() throws {
        let keys = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-keys.service")))
        let deviceLines = keys.split(separator: "\n").filter { $0.hasPrefix("DeviceAllow=") || $0.hasPrefix("SupplementaryGroups=") }
        #expect(deviceLines == ["SupplementaryGroups=audio uinput", "DeviceAllow=/dev/uinput rw"])
        // PrivateDevices= would give the service a /dev without uinput.
        #expect(!keys.contains("\nPrivateDevices="))
        #expect(keys.contains("\nEnvironmentFile=-/etc/flywheel/keys.env\n") && keys.contains("$FLYWHEEL_KEYS_OPTIONS\n"))
        // The default map, which `flywheel keys` takes: a knob's steps the volume keys, BTN_0 play/pause.
        let prefix = "Environment=\"FLYWHEEL_KEYS_OPTIONS=--map "
        let defaults = try #require(keys.split(separator: "\n").first { $0.hasPrefix(prefix) })
        var map = KeyMap()
        try map.add(String(defaults.dropFirst(prefix.count).dropLast()), keyCode: VirtualKeyboard.keyCode(named:))
        #expect(map.keys == [.anyStep(1): 115, .anyStep(-1): 114, .button(0x100): 164])
        #expect(keys.contains("\nAfter=flywheeld.socket systemd-modules-load.service\n"))
        // The module is loaded at boot (the udev rules give /dev/uinput to the group: UdevRulesTests).
        let modules = try #require(RepositoryPaths.read(RepositoryPaths.path("udev/flywheel-keys.conf")))
        #expect(modules.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["uinput"])
    }
}
