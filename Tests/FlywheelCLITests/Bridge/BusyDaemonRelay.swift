import FlywheelCore
import Glibc
import Synchronization

/// A busy flywheeld as a bridge sees it: a Unix socket in front of a real flywheeld that passes
/// every line both ways, except that while it holds, the bridge's volume `set` commands wait in it,
/// unread by flywheeld (as in the socket of a flywheeld that has not come round to them), so their
/// echoes come only after ``release()``, which gives flywheeld one at a time: each in a turn of its
/// own, as flywheeld takes sets that come between its turns (the sets of one turn are echoed once,
/// as the latest). flywheeld itself runs on meanwhile (its simulated buttons, its other clients).
/// It keeps what went each way for the test to wait on: a line to the bridge once it is in the
/// bridge's socket.
final class BusyDaemonRelay: Sendable {
    private struct Lines {
        var holding = false
        var held: [[UInt8]] = []
        /// flywheeld's end of the bridge's connection.
        var upstream: Int32 = -1
        /// The volume of each `set` the bridge sent, in order, held or not.
        var sets: [Int] = []
        /// flywheeld's lines, as they reached the bridge.
        var toBridge: [JSONValue] = []
        /// The bridge's lines, as they reached the relay (held or not).
        var fromBridge: [JSONValue] = []
    }

    let path: String
    private let listener: Int32
    private let lines = Mutex(Lines())

    init(path: String, daemonPath: String) throws {
        self.path = path
        listener = try SlowMPDProxy.listener(path)
        SlowMPDProxy.relayEach(listener, to: daemonPath) { [self] bridge, daemon in
            lines.withLock { $0.upstream = daemon }
            SlowMPDProxy.thread { Self.forward(from: bridge, to: daemon) { self.fromBridge($0, daemon) } }
            SlowMPDProxy.thread { Self.forward(from: daemon, to: bridge) { self.toBridge($0, bridge) } }
        }
    }

    /// From now on the bridge's `set` commands wait here.
    func hold() { lines.withLock { $0.holding = true } }

    /// flywheeld takes what waits, in order, one set a turn: the next once the last one's echo
    /// has reached the bridge (the bridge's sets meanwhile wait their turn too); then whatever
    /// comes, at once. False when an echo did not come within 5 s.
    @discardableResult
    func release() -> Bool {
        while true {
            let echoes = lines.withLock { lines -> Int? in
                guard !lines.held.isEmpty else {
                    lines.holding = false
                    return nil
                }
                SlowMPDProxy.send(lines.held.removeFirst()[...], to: lines.upstream)
                return Self.echoes(lines.toBridge).count
            }
            guard let echoes else { return true }
            let deadline = MonotonicClockForTests.now() + 5
            while lines.withLock({ Self.echoes($0.toBridge).count }) == echoes {
                if MonotonicClockForTests.now() > deadline { return false }
                usleep(1000)
            }
        }
    }

    /// The volumes of `lines`' volume events of a client's set: the read-backs' echoes (one a turn that took sets).
    static func echoes(_ lines: [JSONValue]) -> [Int] {
        lines.filter { $0["class"]?.stringValue == "volume" && $0["phase"]?.stringValue == "set" }.compactMap { $0["volume"]?.doubleValue.map { Int($0) } }
    }

    /// The volume of each `set` the bridge sent, held or not.
    var sets: [Int] { lines.withLock { $0.sets } }

    /// flywheeld's lines that have reached the bridge, in order.
    var toBridge: [JSONValue] { lines.withLock { $0.toBridge } }

    /// The bridge's lines that have reached the relay, in order.
    var fromBridge: [JSONValue] { lines.withLock { $0.fromBridge } }

    /// How many button taps have reached the bridge.
    var taps: Int { toBridge.filter { $0["class"]?.stringValue == "button" && $0["action"]?.stringValue == "tap" }.count }

    /// The echoes that have reached the bridge: their volumes, in order.
    var echoed: [Int] { Self.echoes(toBridge) }

    private func fromBridge(_ line: [UInt8], _ daemon: Int32) {
        let message = try? JSONParser.parse(Array(line.dropLast()))
        lines.withLock {
            if let message { $0.fromBridge.append(message) }
            if message?["cmd"]?.stringValue == "set", message?["control"]?.stringValue == "volume", let volume = message?["volume"]?.doubleValue {
                $0.sets.append(Int(volume))
                if $0.holding { return $0.held.append(line) }
            }
            SlowMPDProxy.send(line[...], to: daemon)
        }
    }

    private func toBridge(_ line: [UInt8], _ bridge: Int32) {
        SlowMPDProxy.send(line[...], to: bridge)
        guard let message = try? JSONParser.parse(Array(line.dropLast())) else { return }
        lines.withLock { $0.toBridge.append(message) }
    }

    /// Reads `source` a line at a time (each handed to `line` with its newline) until either side
    /// closes, then closes both.
    static func forward(from source: Int32, to destination: Int32, line: ([UInt8]) -> Void) {
        var pending: [UInt8] = []
        SlowMPDProxy.copy(from: source, to: destination) { chunk in
            pending += chunk
            while let newline = pending.firstIndex(of: 0x0A) {
                line(Array(pending[...newline]))
                pending.removeSubrange(...newline)
            }
        }
    }

    /// Stops accepting (a connection made ends when either side closes).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
