import FlywheelCore
import Glibc
import Testing

/// What a newcomer meets first with the real binaries: the demo's scrub has a length, flywheeld says
/// where it listens, bundled scenarios go by name, and a client finds the socket through
/// FLYWHEEL_SOCKET.
@Suite("flywheeld's first run", .serialized)
struct DaemonFirstRunTests {
    /// Stops `daemon` and returns what it wrote on standard error.
    static func stopped(_ daemon: DaemonProcess) -> (status: Int32, err: String) {
        daemon.signal(SIGTERM)
        let status = daemon.wait()
        let err = daemon.readStderr()
        daemon.cleanup()
        return (status, err)
    }

    /// The `state` a client gets for `get`.
    static func state(_ client: TestClient) -> JSONValue? {
        client.send(#"{"cmd":"get"}"#)
        return client.next(where: { $0["class"]?.stringValue == "state" })
    }

    @Test("--simulate demo gives the scrub the demo's 214 s (it was 0: the name was replaced by the path before the test)")
    func demoScrubHasALength() throws {
        let daemon = try DaemonProcess(["--simulate", "demo", "--loop", "--frames", "0"])
        defer { _ = daemon.stop() }
        let client = try TestClient(daemon.socketPath)
        let hello = try #require(client.next())
        let devices = hello["devices"]
        guard case .array(let list)? = devices, let path = list.first?["path"]?.stringValue else {
            Issue.record("hello lists no device: \(hello.encoded())")
            return
        }
        #expect(path.hasSuffix("hardware/scenarios/demo.sim") && !path.contains(".."), "\(path)")
        #expect(Self.state(client)?["scrub"]?["duration"]?.doubleValue == 214)
    }

    @Test("flywheeld says once, on standard error, where it listens and what it serves; --quiet keeps it silent")
    func saysWhereItListens() throws {
        let daemon = try DaemonProcess(["--simulate", "flick", "--frames", "0"])
        let (status, err) = Self.stopped(daemon)
        #expect(status == 0)
        let said = err.split(separator: "\n").filter { $0.contains("listening on") }
        #expect(said.count == 1, "\(err)")
        #expect(said.first?.hasPrefix("flywheeld: listening on \(daemon.socketPath), playing the scenario ") == true, "\(err)")
        #expect(said.first?.contains("hardware/scenarios/flick.sim once") == true, "\(err)")
        #expect(said.first?.contains("flywheel watch") == true, "\(err)")

        let quiet = Self.stopped(try DaemonProcess(["--no-devices", "--quiet"]))
        #expect(quiet.status == 0)
        #expect(quiet.err.isEmpty, "\(quiet.err)")
    }

    @Test("without input options it says which devices it takes")
    func saysWhichDevices() throws {
        let daemon = try DaemonProcess([])
        let (status, err) = Self.stopped(daemon)
        #expect(status == 0)
        #expect(err.contains("listening on \(daemon.socketPath), taking every knob it recognises in \(daemon.directory)/input as it appears"), "\(err)")
    }

    @Test("a bundled scenario by name; an unknown name lists the bundled ones")
    func scenarioByName() throws {
        let missing = ChildProcess.run(ChildProcess.product("flywheeld"), ["--simulate", "flik", "--socket", "/tmp/flywheel-never.sock"])
        #expect(missing.status == 1)
        #expect(missing.err.hasPrefix("flywheeld: 'flik' is neither a file nor a bundled scenario (they are "), "\(missing.err)")
        #expect(missing.err.contains("demo, flick,"), "\(missing.err)")
    }

    @Test("FLYWHEEL_SOCKET tells every client command where flywheeld is")
    func socketFromTheEnvironment() throws {
        let daemon = try DaemonProcess(["--no-devices"])
        defer { _ = daemon.stop() }
        let sent = ChildProcess.run(ChildProcess.product("flywheel"), ["send", #"{"cmd":"ping"}"#], environment: ["FLYWHEEL_SOCKET=\(daemon.socketPath)"])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(sent.out.hasPrefix(#"{"class":"pong""#), "\(sent.out)")
        let nowhere = ChildProcess.run(ChildProcess.product("flywheel"), ["send", #"{"cmd":"ping"}"#], environment: ["FLYWHEEL_SOCKET=\(daemon.directory)/none.sock"])
        #expect(nowhere.status == 1)
        #expect(nowhere.err.hasPrefix("flywheel: cannot reach flywheeld at \(daemon.directory)/none.sock: No such file or directory (ENOENT); is the daemon running?"), "\(nowhere.err)")
        #expect(nowhere.err.contains("FLYWHEEL_SOCKET"), "\(nowhere.err)")
    }
}
