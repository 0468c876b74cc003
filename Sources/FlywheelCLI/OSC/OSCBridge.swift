import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel osc`: flywheeld's events as OSC messages over UDP to one receiver, as they happen,
/// on the bridges' ``SessionLoop``. Reconnects to flywheeld with backoff (saying so on standard
/// error). Whether the receiver listens is known from the kernel's answers: a "port unreachable"
/// says nothing listens (said once; the messages keep going, UDP has nothing to restore), and
/// the receiver counts as back only once a datagram has gone ``recoveryNanoseconds`` without such
/// an answer. A datagram whose send reports an earlier one's refusal is sent again, so the first
/// message to a receiver that came back is not lost. Exits cleanly on SIGTERM or SIGINT.
final class OSCBridge: SessionPart {
    /// How long a datagram must go unrefused for the receiver to count as listening again (250 ms).
    static let recoveryNanoseconds: Nanoseconds = 250_000_000

    let preset: OSCPreset
    let sender: UDPSender
    let log: (String) -> Void
    let daemon: DaemonLink
    var receiverMissing = false
    /// While the receiver is missing: when the last datagram went out without a refusal.
    var probeSince: Nanoseconds?
    /// Messages sent, for the log on exit.
    var sent = 0

    init(flywheel: String, sender: UDPSender, preset: OSCPreset, log: @escaping (String) -> Void) {
        self.sender = sender
        self.preset = preset
        self.log = log
        let classes = JSONValue.array(preset.classes.map(JSONValue.string)).encoded()
        daemon = DaemonLink(path: flywheel, name: "flywheel osc", request: [#"{"cmd":"watch","classes":\#(classes),"frames":false}"#], log: log)
        daemon.onLine = { [unowned self] in handle($0) }
        daemon.onConnected = { _ in
            log("flywheel osc: connected to flywheeld at \(flywheel), sending to \(sender.address) (\(preset.rawValue)).")
        }
    }

    /// Sends the messages for one line from flywheeld.
    func handle(_ line: [UInt8]) {
        guard let event = try? JSONParser.parse(line) else { return }
        for message in preset.messages(for: event) { send(message.bytes) }
    }

    func send(_ datagram: [UInt8]) {
        do {
            guard try sender.send(datagram) else { return }  // the socket's buffer is full: dropped, as UDP would
            sent += 1
            if receiverMissing, probeSince == nil { probeSince = MonotonicClock.now() }
        } catch where error.errno == ECONNREFUSED {
            // An earlier datagram was refused; this one did not go: say so once, and send it again.
            refused(error.description)
            if (try? sender.send(datagram)) == true { sent += 1 }
        } catch {
            log("flywheel osc: \(error)")
        }
    }

    func refused(_ reason: String) {
        probeSince = nil
        if !receiverMissing { log("flywheel osc: nothing is listening at \(sender.address) (\(reason)); still sending.") }
        receiverMissing = true
    }

    // The UDP socket on the loop: no events asked, POLLERR comes with a refusal.
    var pollRequest: pollfd? { pollfd(fd: sender.fd, events: 0, revents: 0) }

    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {
        let error = sender.takePendingError()
        if error == ECONNREFUSED { refused("\(Errno.describe(error)) for a message sent") }
    }

    var deadline: Nanoseconds? { probeSince.map { $0 + Self.recoveryNanoseconds } }

    func due(at now: Nanoseconds) {
        guard receiverMissing, let since = probeSince, now >= since + Self.recoveryNanoseconds else { return }
        probeSince = nil
        receiverMissing = false
        log("flywheel osc: \(sender.address) is listening again.")
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        loop.parts = [daemon, self]
        daemon.due(at: MonotonicClock.now())
        try loop.run()
        log("flywheel osc: stopping; \(sent) messages sent.")
    }
}
