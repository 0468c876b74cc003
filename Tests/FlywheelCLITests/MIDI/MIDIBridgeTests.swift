import FlywheelCore
import Glibc
import Testing

/// `flywheel midi --clock` writing to a FIFO on the host, a real flywheeld setting the tempo: the
/// bytes in order (Start, ticks, Stop), and the tick rate at two tempos.
@Suite("flywheel midi on a FIFO", .serialized)
struct MIDIBridgeTests {
    typealias Harness = MPDBridgeTests

    /// Reads the FIFO: every byte with the CLOCK_MONOTONIC time it was read (nil at end or after 5 s of silence).
    final class Reader {
        var fd: Int32
        var bytes: [(byte: UInt8, seconds: Double)] = []
        init(_ path: String) throws {
            fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw TestFailure("open \(path): errno \(errno)") }
        }
        deinit { if fd >= 0 { Glibc.close(fd) } }
        /// Stops reading: the writer's next write fails (EPIPE).
        func close() {
            Glibc.close(fd)
            fd = -1
        }
        /// Reads until `count` more clock ticks came (false at end of stream or silence).
        func read(ticks count: Int) -> Bool {
            var seen = 0
            var chunk = [UInt8](repeating: 0, count: 256)
            while seen < count {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 5000) > 0 else { return false }
                let n = Glibc.read(fd, &chunk, chunk.count)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 { return false }
                let now = MonotonicClockForTests.now()
                for byte in chunk[0..<n] {
                    bytes.append((byte, now))
                    if byte == 0xF8 { seen += 1 }
                }
            }
            return true
        }
        /// Reads to the end of the stream (the writer closed).
        func readToEnd() {
            while read(ticks: Int.max) {}
        }
    }

    /// Intervals between consecutive ticks among `ticks` (seconds).
    static func intervals(_ ticks: [Double]) -> [Double] { zip(ticks.dropFirst(), ticks).map { $0 - $1 } }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    /// A directory with a FIFO in it, a reader on the FIFO, and a flywheeld.
    static func fifoAndDaemon() throws -> (directory: String, fifo: String, reader: Reader, daemon: DaemonProcess) {
        var template = Array("/tmp/flywheel-midi-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let fifo = directory + "/midi"
        guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("mkfifo \(fifo): errno \(errno)") }
        return (directory, fifo, try Reader(fifo), try DaemonProcess(["--frames", "0"]))
    }

    @Test("Start, 24 ticks a quarter note at 120 then at 200 BPM, Stop on SIGTERM")
    func clock() throws {
        let (directory, fifo, reader, daemon) = try Self.fifoAndDaemon()
        defer { _ = daemon.stop() }
        let client = try TestClient(daemon.socketPath)
        _ = client.next()  // hello
        let bridge = try Harness.Background(
            [ChildProcess.product("flywheel"), "midi", "--socket", daemon.socketPath, "--device", fifo, "--clock", "--channel", "2"],
            stderrPath: directory + "/bridge.err")
        defer { bridge.stop() }

        #expect(reader.read(ticks: 110))
        let slow = reader.bytes.filter { $0.byte == 0xF8 }.map(\.seconds).suffix(100)
        client.send(#"{"cmd":"set","control":"tempo","bpm":200}"#)
        let changed = reader.bytes.count
        #expect(reader.read(ticks: 110))
        let fast = reader.bytes[changed...].filter { $0.byte == 0xF8 }.map(\.seconds).suffix(100)
        #expect(bridge.stop() == 0)
        reader.readToEnd()

        #expect(reader.bytes.first?.byte == 0xFA)
        #expect(reader.bytes.last?.byte == 0xFC)
        #expect(reader.bytes.filter { $0.byte != 0xF8 }.count == 2, "only Start and Stop besides the ticks")
        for (ticks, bpm) in [(Array(slow), 120.0), (Array(fast), 200.0)] {
            let period = 60 / (bpm * 24)
            let intervals = Self.intervals(ticks)
            let mean = (ticks.last! - ticks.first!) / Double(intervals.count)
            let jitter = intervals.map { abs($0 - period) }
            print("flywheel midi: \(Int(bpm)) BPM: mean tick interval \(mean * 1e3) ms (ideal \(period * 1e3)), jitter p50 \(Self.percentile(jitter, 0.5) * 1e3) ms, p99 \(Self.percentile(jitter, 0.99) * 1e3) ms, max \(jitter.max()! * 1e3) ms over \(intervals.count) intervals")
            // The rate, not the timing of single ticks (the machine is shared, and a late reader
            // stamps several ticks at once): the least-squares slope of arrival time over tick
            // number within 2 % (24 ticks a quarter note rather than 25 would be 4 % off).
            let slope = Self.slope(ticks)
            #expect(abs(slope - period) / period < 0.02, "\(bpm) BPM: fitted tick interval \(slope) s, ideal \(period) s")
        }
    }

    /// The least-squares slope of `times` over their index: the mean interval, robust to single
    /// late arrivals.
    static func slope(_ times: [Double]) -> Double {
        let n = Double(times.count), meanIndex = (n - 1) / 2
        let meanTime = times.reduce(0, +) / n
        var covariance = 0.0, variance = 0.0
        for (index, time) in times.enumerated() {
            covariance += (Double(index) - meanIndex) * (time - meanTime)
            variance += (Double(index) - meanIndex) * (Double(index) - meanIndex)
        }
        return covariance / variance
    }

    /// The bridge's standard error once it contains `text` (nil after 5 s).
    static func log(_ path: String, containing text: String) -> String? {
        let deadline = MonotonicClockForTests.now() + 5
        while MonotonicClockForTests.now() < deadline {
            if let log = RepositoryPaths.read(path), log.contains(text) { return log }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)  // polling a file for a line the bridge writes
        }
        return nil
    }

    @Test("the port going away (EPIPE): one message, reopened with backoff once it is back, Start again, ticks resume")
    func portReopened() throws {
        let (directory, fifo, first, daemon) = try Self.fifoAndDaemon()
        defer { _ = daemon.stop() }
        let errors = directory + "/bridge.err"
        let bridge = try Harness.Background(
            [ChildProcess.product("flywheel"), "midi", "--socket", daemon.socketPath, "--device", fifo, "--clock"], stderrPath: errors)
        defer { bridge.stop() }
        #expect(first.read(ticks: 5))
        first.close()
        let gone = Self.log(errors, containing: "Broken pipe")
        #expect(gone != nil, "the bridge did not say the port went away")
        #expect(!bridge.hasExited, "a port going away must not end the bridge")
        let second = try Reader(fifo)
        #expect(second.read(ticks: 5))
        #expect(second.bytes.first?.byte == 0xFA, "Start again on the reopened port")
        #expect(bridge.stop() == 0)
        let log = RepositoryPaths.read(errors) ?? ""
        #expect(log.ranges(of: "Broken pipe").count == 1, "one message for the port going away: \(log)")
        #expect(log.contains("flywheel midi: reopened \(fifo)."), "\(log)")
    }
}
