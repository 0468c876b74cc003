@testable import FlywheelCLI
import FlywheelCore
import Glibc
import Testing

/// A tempo between whole BPMs (issue 34) reaches what the bridges drive exactly: the OSC receiver
/// gets 92.5 as its float, and the MIDI clock ticks 92.5 × 24 times a minute.
@Suite("Tenths of a BPM reach the bridges", .serialized)
struct TenthsReachBridgesTests {
    @Test("a client's set to 92.5 reaches a real OSC receiver through flywheel osc as the float 92.5")
    func osc() throws {
        let directory = FaultyPeer.temporaryDirectory()
        let port = OSCBridgeTests.freePort()
        let receiver = OSCFaultyPeerTests.receiver(port: port)
        defer { close(receiver) }
        let daemon = try DaemonProcess([])
        defer { _ = daemon.stop() }
        let bridge = try Child(flywheel: ["osc", "--socket", daemon.socketPath, "--to", "127.0.0.1:\(port)"], stderrPath: directory + "/bridge.err")
        defer { bridge.forceStop() }
        #expect(FaultyPeer.eventually { FaultyPeer.text(directory + "/bridge.err").contains("connected to flywheeld") })
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 5)
        #expect(FaultyPeer.set(client, #"{"cmd":"set","control":"tempo","bpm":92.5}"#)?["tempo"]?["bpm"]?.doubleValue == 92.5)
        var floats: [Float] = []
        var buffer = [UInt8](repeating: 0, count: 1500)
        #expect(FaultyPeer.eventually(seconds: 5) {
            let n = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n >= 4 { floats.append(Float(bitPattern: buffer[n - 4..<n].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })) }
            return !floats.isEmpty
        })
        #expect(floats.first == 92.5, "\(floats)")
    }

    @Test("the MIDI bridge's clock takes the wire's 92.5 exactly: a tick every 60 / (92.5 × 24) s")
    func midiClock() {
        let bridge = MIDIBridge(flywheel: "/nonexistent", devicePath: "/nonexistent", channel: 1, mapping: MIDIMapping(), clock: true, log: { _ in })
        bridge.handle(Array(#"{"class":"tempo","seq":3,"bpm":92.5,"value":72,"phase":"set","time":1.0}"#.utf8))
        #expect(bridge.clock?.periodNanoseconds == 60e9 / (92.5 * 24))
        bridge.handle(Array(#"{"class":"state","seq":4,"tempo":{"bpm":120.3,"value":100},"time":2.0}"#.utf8))
        #expect(bridge.clock?.periodNanoseconds == 60e9 / (120.3 * 24))
    }
}
