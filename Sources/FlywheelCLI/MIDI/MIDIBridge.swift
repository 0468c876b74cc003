import FlywheelCore
import FlywheelDaemon
import FlywheelIO
import Glibc

/// `flywheel midi`: flywheeld's events as MIDI bytes on a raw MIDI port, on the bridges'
/// ``SessionLoop``. Knob steps as relative CC, buttons as notes or controllers (``MIDIMapping``),
/// a scrub commit as Song Position Pointer; with the clock, Start, then 24 ticks a quarter note
/// following the tempo, the loop waking at each tick's own time, and Stop on exit. Reconnects to
/// flywheeld with backoff (the clock keeps its tempo meanwhile). The port (``MIDIPort``) never
/// makes the loop wait: a port that takes no bytes drops messages, one that fails is reopened with
/// backoff, Start sent again when the clock runs. Exits cleanly on SIGTERM or SIGINT, whatever the
/// port does.
final class MIDIBridge: SessionPart {
    let port: MIDIPort
    let sendsClock: Bool
    let log: (String) -> Void
    let daemon: DaemonLink
    var messages: MIDIMessages
    var clock: MIDIClock?

    init(flywheel: String, devicePath: String, channel: Int, mapping: MIDIMapping, clock: Bool, log: @escaping (String) -> Void) {
        port = MIDIPort(path: devicePath, log: log)
        sendsClock = clock
        messages = MIDIMessages(channel: channel, mapping: mapping)
        self.log = log
        daemon = DaemonLink(
            path: flywheel, name: "flywheel midi",
            request: [#"{"cmd":"watch","classes":["tempo","scrub","volume","button"],"frames":false}"#, #"{"cmd":"get"}"#], log: log)
        daemon.onLine = { [unowned self] in handle($0) }
        daemon.onConnected = { _ in log("flywheel midi: connected to flywheeld at \(flywheel), writing to \(devicePath).") }
        port.onReopened = { [unowned self] in if self.clock != nil { port.write(MIDIMessages.start) } }
    }

    func handle(_ line: [UInt8]) {
        guard let event = try? JSONParser.parse(line) else { return }
        if event["class"]?.stringValue == "state", let bpm = event["tempo"]?["bpm"]?.doubleValue { tempo(bpm) }
        if event["class"]?.stringValue == "tempo", let bpm = event["bpm"]?.doubleValue { tempo(bpm) }
        port.write(messages.bytes(for: event))
    }

    /// The tempo now: the clock starts on the first one (Start, then a tick at once) and follows
    /// the later ones from its next tick.
    func tempo(_ bpm: Double) {
        messages.bpm = bpm
        guard sendsClock else { return }
        if clock == nil {
            port.write(MIDIMessages.start)
            clock = MIDIClock(bpm: bpm, start: MonotonicClock.now())
        } else {
            clock?.setTempo(bpm: bpm)
        }
    }

    // The clock as a part of the loop: a deadline at each tick.
    var pollRequest: pollfd? { nil }
    func ready(fd: Int32, revents: Int16, at now: Nanoseconds) {}
    var deadline: Nanoseconds? { clock?.nextTick }

    func due(at now: Nanoseconds) {
        guard clock != nil else { return }
        let count = clock!.ticks(dueBy: now)
        // Each tick is a message of its own: a port that is behind drops ticks, never half of one.
        for _ in 0..<count { port.write([0xF8]) }
    }

    /// Runs until SIGTERM or SIGINT; sends Stop (when the clock ran) on the way out.
    func run() throws(ToolError) {
        let loop = try SessionLoop()
        do { try port.openFirst() } catch { throw ToolError(error) }
        loop.parts = [daemon, port, self]
        daemon.due(at: MonotonicClock.now())
        try loop.run()
        if clock != nil { port.write(MIDIMessages.stop) }
        log("flywheel midi: stopping.")
    }
}
