@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// `flywheel mqtt` between a real flywheeld and Debian's real `mosquitto` broker, read and driven
/// with Debian's `mosquitto_sub` and `mosquitto_pub`; and against brokers that misbehave.
@Suite("flywheel mqtt against mosquitto", .serialized, .timeLimit(.minutes(2)))
struct MQTTBridgeTests {
    static let mosquitto = "/usr/sbin/mosquitto", sub = "/usr/bin/mosquitto_sub", pub = "/usr/bin/mosquitto_pub"
    static var available: Bool { access(mosquitto, X_OK) == 0 && access(sub, X_OK) == 0 && access(pub, X_OK) == 0 }

    /// A broker on 127.0.0.1:`port`, anonymous, without persistence.
    static func broker(_ directory: String, port: Int) throws -> Child {
        RepositoryPaths.write("listener \(port) 127.0.0.1\nallow_anonymous true\n", to: directory + "/mosquitto.conf")
        let broker = try Child([mosquitto, "-c", directory + "/mosquitto.conf"], stderrPath: directory + "/mosquitto.log")
        #expect(FaultyPeer.eventually { Self.read(port, "$SYS/broker/version", count: 1) != nil }, "mosquitto did not start")
        return broker
    }

    /// What `mosquitto_sub` receives on `topics` (retained values arrive at once): `count` lines of
    /// "TOPIC PAYLOAD", or nil if they do not come within 3 s.
    static func read(_ port: Int, _ topics: String..., count: Int) -> [String]? {
        let run = ChildProcess.run(sub, ["-h", "127.0.0.1", "-p", String(port), "-v", "-C", String(count), "-W", "3"] + topics.flatMap { ["-t", $0] })
        guard run.status == 0 else { return nil }
        return run.out.split(separator: "\n").map(String.init)
    }

    static func publish(_ port: Int, _ topic: String, _ payload: String) {
        #expect(ChildProcess.run(pub, ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", payload]).status == 0)
    }

    /// The retained value of `topic`, or nil.
    static func value(_ port: Int, _ topic: String) -> String? {
        read(port, topic, count: 1)?.first.map { String($0.dropFirst(topic.count + 1)) }
    }

    @Test("the state is published retained with Home Assistant's discovery; mosquitto_pub sets the tempo (to a tenth), the mode and the volume; SIGTERM says offline",
          .enabled(if: available || HostTools.required, "mosquitto and mosquitto-clients are not installed (Tests/scripts/test.sh installs them)"))
    func stateAndCommands() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let port = OSCBridgeTests.freePort(stream: true)
        let broker = try Self.broker(directory, port: port)
        defer { broker.forceStop() }
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["mqtt", "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(port)"], stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }

        let state = try #require(Self.read(port, "flywheel/#", count: 5), "\(FaultyPeer.text(directory + "/bridge.err"))").sorted()
        #expect(state == ["flywheel/mode tempo", "flywheel/scrub/position 0", "flywheel/status online", "flywheel/tempo 120", "flywheel/volume 30"])
        let discovery = try #require(Self.read(port, "homeassistant/#", count: 3))
        var configs: [String: JSONValue] = [:]
        for line in discovery {
            let space = line.firstIndex(of: " ")!
            configs[String(line[..<space])] = try JSONParser.parse(Array(line[line.index(after: space)...].utf8))
        }
        let tempo = try #require(configs["homeassistant/number/flywheel_tempo/config"])
        #expect(tempo["command_topic"] == .string("flywheel/tempo/set") && tempo["min"]?.doubleValue == 20 && tempo["max"]?.doubleValue == 300)
        #expect(tempo["availability_topic"] == .string("flywheel/status") && tempo["unit_of_measurement"] == .string("BPM"))
        #expect(configs["homeassistant/number/flywheel_volume/config"]?["max"]?.doubleValue == 100)
        #expect(configs["homeassistant/select/flywheel_mode/config"]?["options"] == .array([.string("tempo"), .string("scrub")]))

        Self.publish(port, "flywheel/tempo/set", "96.5")
        Self.publish(port, "flywheel/mode/set", "scrub")
        Self.publish(port, "flywheel/volume/set", "44")
        Self.publish(port, "flywheel/volume/set", "loud")
        #expect(FaultyPeer.eventually {
            let now = FaultyPeer.state(daemon.socketPath)
            return now?["tempo"]?["bpm"]?.doubleValue == 96.5 && now?["mode"]?["active"] == .string("scrub") && now?["volume"]?["volume"]?.doubleValue == 44
        })
        #expect(FaultyPeer.eventually { Self.value(port, "flywheel/tempo") == "96.5" && Self.value(port, "flywheel/volume") == "44" })
        #expect(FaultyPeer.text(directory + "/bridge.err").contains("flywheel/volume/set takes a number, not 'loud'; ignored."))
        // Another client's set reaches MQTT too.
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        FaultyPeer.set(client, #"{"cmd":"set","control":"tempo","bpm":133}"#)
        #expect(FaultyPeer.eventually { Self.value(port, "flywheel/tempo") == "133" })

        FaultyPeer.expectStopsPromptly(bridge, "flywheel mqtt")
        #expect(Self.value(port, "flywheel/status") == "offline")
    }

    @Test("the broker restarting, and the daemon restarting: the bridge reconnects to each and publishes the state again; a bridge killed leaves its will, offline",
          .enabled(if: available || HostTools.required, "mosquitto and mosquitto-clients are not installed (Tests/scripts/test.sh installs them)"))
    func restarts() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let port = OSCBridgeTests.freePort(stream: true)
        var broker = try Self.broker(directory, port: port)
        defer { broker.forceStop() }
        var daemon = try DaemonProcess([])
        let socket = daemon.socketPath
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["mqtt", "--socket", socket, "--broker", "127.0.0.1:\(port)"], stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { Self.value(port, "flywheel/tempo") == "120" })

        broker.stop()
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("retrying in") })
        broker = try Self.broker(directory, port: port)  // no persistence: nothing retained until the bridge publishes again
        #expect(FaultyPeer.eventually(seconds: 15) { Self.value(port, "flywheel/tempo") == "120" }, "\(FaultyPeer.text(directory + "/bridge.err"))")

        _ = daemon.stop()
        daemon = try DaemonProcess(["--config", Self.config(directory)], socketPath: socket)
        #expect(FaultyPeer.eventually(seconds: 15) { Self.value(port, "flywheel/tempo") == "90" }, "\(FaultyPeer.text(directory + "/bridge.err"))")

        bridge.stop(SIGKILL)
        #expect(FaultyPeer.eventually { Self.value(port, "flywheel/status") == "offline" }, "the will")
    }

    static func config(_ directory: String) -> String {
        RepositoryPaths.write("{ controls: { tempo: { bpm: 90 } } }", to: directory + "/flywheel.json5")
        return directory + "/flywheel.json5"
    }

    @Test("a broker that never answers CONNECT, and one that announces a 100 MB packet: SIGTERM still ends the bridge promptly, its memory bounded")
    func faultyBrokers() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }

        // Silent: a listening socket that is never accepted from (the handshake completes in the backlog).
        let (silent, silentPort) = Self.listener()
        defer { close(silent) }
        let first = try Child(flywheel: ["mqtt", "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(silentPort)"], stderrPath: directory + "/silent.err")
        defer { first.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/silent.err").contains("connected to flywheeld") })
        FaultyPeer.expectFrugal(FaultyPeer.usage(of: first.pid, over: 1), "flywheel mqtt against a silent broker")
        FaultyPeer.expectStopsPromptly(first, "flywheel mqtt (silent broker)")

        // Flooding: CONNACK, then a PUBLISH whose header says 100 MB, then bytes without end.
        let (flood, floodPort) = Self.listener()
        defer { close(flood) }
        SlowMPDProxy.thread {
            let peer = accept(flood, nil, nil)
            guard peer >= 0 else { return }
            var connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
            _ = send(peer, &connack, connack.count, Int32(MSG_NOSIGNAL))
            var header: [UInt8] = [0x30] + MQTTPacket.remainingLength(100_000_000)
            _ = send(peer, &header, header.count, Int32(MSG_NOSIGNAL))
            var junk = [UInt8](repeating: 0x41, count: 65_536)
            for _ in 0..<200 where send(peer, &junk, junk.count, Int32(MSG_NOSIGNAL)) > 0 {}
            close(peer)
        }
        let second = try Child(flywheel: ["mqtt", "--socket", daemon.socketPath, "--broker", "127.0.0.1:\(floodPort)"], stderrPath: directory + "/flood.err")
        defer { second.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/flood.err").contains("cannot take") }, "\(FaultyPeer.text(directory + "/flood.err"))")
        FaultyPeer.expectFrugal(FaultyPeer.usage(of: second.pid, over: 1), "flywheel mqtt after a 100 MB packet")
        FaultyPeer.expectStopsPromptly(second, "flywheel mqtt (flooding broker)")
    }

    /// A TCP listener on 127.0.0.1 and its port.
    static func listener() -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(fd, 4)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
