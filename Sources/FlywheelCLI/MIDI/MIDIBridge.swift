import FlywheelCore
import FlywheelIO
import Glibc

/// `flywheel midi`: flywheeld's events as MIDI bytes on a raw MIDI port. Knob steps as relative
/// CC, buttons as notes or controllers (``MIDIMapping``), a scrub commit as Song Position Pointer; with the clock, Start, then 24
/// ticks a quarter note following the tempo from a monotonic timer (the event loop's timerfd,
/// armed for each tick's absolute time), and Stop on exit. Reconnects to flywheeld with backoff
/// (the clock keeps its tempo meanwhile). A port that fails a write (unplugged, its reader gone) is
/// said once and reopened with backoff, Start sent again when the clock runs; meanwhile messages are
/// dropped. Exits cleanly on SIGTERM or SIGINT.
final class MIDIBridge {
    let flywheelAddress: String
    let devicePath: String
    /// The port, nil while it is gone.
    var output: FileOutput?
    var deviceBackoff = ReconnectBackoff()
    let sendsClock: Bool
    let log: (String) -> Void
    var messages: MIDIMessages
    var clock: MIDIClock?
    var flywheel: LineSocket?
    var backoff = ReconnectBackoff()
    var stopping = false

    init(flywheel: String, output: FileOutput, channel: Int, mapping: MIDIMapping, clock: Bool, log: @escaping (String) -> Void) {
        flywheelAddress = flywheel
        devicePath = output.name
        self.output = output
        sendsClock = clock
        messages = MIDIMessages(channel: channel, mapping: mapping)
        self.log = log
    }

    func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, let output else { return }
        do { try output.write(bytes: bytes) } catch {
            output.close()
            self.output = nil
            log("flywheel midi: \(ReconnectBackoff.clause("\(error)")); reopening \(devicePath), \(deviceBackoff.failed(at: MonotonicClock.now()))")
        }
    }

    /// Opens the port again once its backoff allows; Start again when the clock runs.
    func reopen() {
        guard output == nil, deviceBackoff.mayTry(at: MonotonicClock.now()) else { return }
        do {
            output = try FileOutput.reopenDevice(devicePath)
            deviceBackoff.succeeded()
            log("flywheel midi: reopened \(devicePath).")
            if clock != nil { send(MIDIMessages.start) }
        } catch {
            _ = deviceBackoff.failed(at: MonotonicClock.now())
        }
    }

    func connect(_ loop: EventLoop) {
        guard flywheel == nil, backoff.mayTry(at: MonotonicClock.now()) else { return }
        do {
            let socket = try LineSocket(connectingTo: flywheelAddress)
            try socket.send(#"{"cmd":"watch","classes":["tempo","scrub","volume","button"],"frames":false}"#)
            try socket.send(#"{"cmd":"get"}"#)
            try loop.register(socket.fd, interest: .readable) { [unowned self] _ in self.readable(loop) }
            flywheel = socket
            backoff.succeeded()
            log("flywheel midi: connected to flywheeld at \(flywheelAddress), writing to \(devicePath).")
        } catch {
            log("flywheel midi: flywheeld at \(flywheelAddress): \(ReconnectBackoff.clause("\(error)")); \(backoff.failed(at: MonotonicClock.now()))")
        }
    }

    func readable(_ loop: EventLoop) {
        guard let flywheel else { return }
        var reason: String?
        do {
            if try flywheel.fill() {
                while let line = flywheel.bufferedLine() { handle(line) }
            } else {
                reason = "flywheeld closed the connection"
            }
        } catch { reason = "\(error)" }
        if let reason {
            loop.unregister(flywheel.fd)
            self.flywheel = nil
            log("flywheel midi: flywheeld at \(flywheelAddress): \(ReconnectBackoff.clause(reason)); \(backoff.failed(at: MonotonicClock.now()))")
        }
    }

    func handle(_ line: String) {
        guard let event = try? JSONParser.parse(Array(line.utf8)) else { return }
        if event["class"]?.stringValue == "state", let bpm = event["tempo"]?["bpm"]?.doubleValue { tempo(bpm) }
        if event["class"]?.stringValue == "tempo", let bpm = event["bpm"]?.doubleValue { tempo(bpm) }
        send(messages.bytes(for: event))
    }

    /// The tempo now: the clock starts on the first one (Start, then a tick at once) and follows
    /// the later ones from its next tick.
    func tempo(_ bpm: Double) {
        messages.bpm = bpm
        guard sendsClock else { return }
        if clock == nil {
            send(MIDIMessages.start)
            clock = MIDIClock(bpm: bpm, start: MonotonicClock.now())
        } else {
            clock?.setTempo(bpm: bpm)
        }
    }

    /// Sends the ticks that are due.
    func tick() {
        guard clock != nil else { return }
        let due = clock!.ticks(dueBy: MonotonicClock.now())
        if due > 0 { send([UInt8](repeating: 0xF8, count: due)) }
    }

    /// Runs until SIGTERM or SIGINT; sends Stop (when the clock ran) on the way out.
    func run() throws {
        CurrentProcess.ignoreBrokenPipes()  // a reader gone is EPIPE, said once, not the end
        let signals = try SignalSource([SIGTERM, SIGINT])
        let loop = try EventLoop()
        defer { loop.removeAllHandlers() }
        try loop.register(signals.fd, interest: .readable) { [unowned self] _ in
            if !signals.drain().isEmpty { stopping = true }
        }
        loop.onTimer { [unowned self] in self.tick() }
        while !stopping {
            connect(loop)
            reopen()
            tick()
            let deadlines = [clock?.nextTick, flywheel == nil ? backoff.nextAttemptNanoseconds : nil,
                             output == nil ? deviceBackoff.nextAttemptNanoseconds : nil].compactMap { $0 }
            loop.arm(at: deadlines.min())
            try loop.runOnce(timeoutMilliseconds: -1)
        }
        if clock != nil { send(MIDIMessages.stop) }
        log("flywheel midi: stopping.")
    }
}
