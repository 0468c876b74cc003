import FlywheelCore
import FlywheelIO
import Glibc

/// `flywheel osc`: flywheeld's events as OSC messages over UDP to one receiver, as they happen.
/// Reconnects to flywheeld with backoff (saying so on standard error); a receiver that is not
/// listening is said once and the messages keep going (UDP has no connection to restore); exits
/// cleanly on SIGTERM or SIGINT.
final class OSCBridge {
    let flywheelAddress: String
    let preset: OSCPreset
    let sender: UDPSender
    let log: (String) -> Void
    var flywheel: LineSocket?
    var backoff = ReconnectBackoff()
    var receiverMissing = false
    /// Messages sent, for the log on exit.
    var sent = 0

    init(flywheel: String, sender: UDPSender, preset: OSCPreset, log: @escaping (String) -> Void) {
        flywheelAddress = flywheel
        self.sender = sender
        self.preset = preset
        self.log = log
    }

    func connect() {
        guard flywheel == nil, backoff.mayTry(at: MonotonicClock.now()) else { return }
        do {
            let socket = try LineSocket(connectingTo: flywheelAddress)
            let classes = JSONValue.array(preset.classes.map(JSONValue.string)).encoded()
            try socket.send(#"{"cmd":"watch","classes":\#(classes),"frames":false}"#)
            flywheel = socket
            backoff.succeeded()
            log("flywheel osc: connected to flywheeld at \(flywheelAddress), sending to \(sender.address) (\(preset.rawValue)).")
        } catch {
            drop("\(error)")
        }
    }

    /// The connection failed or ended: the next attempt waits twice as long, up to 10 s.
    func drop(_ reason: String) {
        flywheel = nil
        log("flywheel osc: flywheeld at \(flywheelAddress): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
    }

    /// Sends the messages for one line from flywheeld.
    func handle(_ line: String) {
        guard let event = try? JSONParser.parse(Array(line.utf8)) else { return }
        for message in preset.messages(for: event) {
            do {
                try sender.send(message.bytes)
                sent += 1
                if receiverMissing {
                    receiverMissing = false
                    log("flywheel osc: \(sender.address) is listening again.")
                }
            } catch where error.errno == ECONNREFUSED {
                if !receiverMissing { log("flywheel osc: nothing is listening at \(sender.address) (\(error)); still sending.") }
                receiverMissing = true
            } catch {
                log("flywheel osc: \(error)")
            }
        }
    }

    /// Runs until SIGTERM or SIGINT.
    func run() throws {
        let signals = try SignalSource([SIGTERM, SIGINT])
        while true {
            connect()
            var fds = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
            if let flywheel { fds.append(pollfd(fd: flywheel.fd, events: Int16(POLLIN), revents: 0)) }
            let timeout = flywheel == nil ? backoff.pollTimeoutMilliseconds(at: MonotonicClock.now()) : -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if fds[0].revents != 0, !signals.drain().isEmpty {
                log("flywheel osc: stopping; \(sent) messages sent.")
                return
            }
            if let flywheel, fds.count > 1, fds[1].revents != 0 {
                do {
                    guard try flywheel.fill() else { drop("flywheeld closed the connection"); continue }
                    while let line = flywheel.bufferedLine() { handle(line) }
                } catch { drop("\(error)") }
            }
        }
    }
}
