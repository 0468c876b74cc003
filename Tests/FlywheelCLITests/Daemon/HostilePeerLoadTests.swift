import FlywheelCore
import FlywheelIO
import Glibc
import Synchronization
import Testing

/// Load a hostile peer puts on a real flywheeld: counted, never timed. A flood must not cost a
/// neighbour a single answer or event, and the work per input must grow linearly with it
/// (instructions counted by callgrind inside the one function that does the work).
@Suite("flywheeld under a hostile peer's load", .serialized)
struct HostilePeerLoadTests {
    /// Writes `chunk` to `fd` on a thread of its own until a write fails (the test shuts the
    /// socket to stop it); ``written`` is how many bytes went out so far, ``join()`` the total.
    final class Flood {
        /// What the writer thread shares with the test.
        final class Shared: Sendable {
            let fd: Int32
            let chunk: [UInt8]
            let written = Atomic<Int>(0)
            init(fd: Int32, chunk: [UInt8]) {
                self.fd = fd
                self.chunk = chunk
            }
        }

        let thread: pthread_t
        let shared: Shared

        init(_ fd: Int32, chunk: [UInt8]) {
            shared = Shared(fd: fd, chunk: chunk)
            var thread = pthread_t()
            pthread_create(&thread, nil, { raw in
                let shared = Unmanaged<Shared>.fromOpaque(raw!).takeRetainedValue()
                while true {
                    let n = shared.chunk.withUnsafeBytes { send(shared.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { break }
                    shared.written.add(n, ordering: .relaxed)
                }
                return nil
            }, Unmanaged.passRetained(shared).toOpaque())
            self.thread = thread
        }

        var written: Int { shared.written.load(ordering: .relaxed) }

        func join() -> Int {
            pthread_join(thread, nil)
            return written
        }
    }

    @Test("a client flooding blank lines: a quiet neighbour gets every pong and every tempo event, in order")
    func blankLineFlood() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let quiet = try TestClient(daemon.socketPath)
        #expect(quiet.next()?["class"] == .string("hello"))
        let setter = try TestClient(daemon.socketPath)
        _ = setter.next()
        let flooder = try TestClient(daemon.socketPath)
        _ = flooder.next()
        // Keep-alives as fast as the socket takes them, for as long as the neighbour works.
        let flood = Flood(flooder.fd, chunk: [UInt8](repeating: 0x0A, count: 64 * 1024))
        // At least 200 rounds, and on until the daemon has read 1 MiB of the flood (it reads at most
        // 16 KiB per 10 ms of it, so the neighbour works while the flood goes on for ≥ 0.6 s).
        var rounds = 0
        var pongs = 0, tempos: [Int] = [], sent: [Int] = []
        while rounds < 200 || (flood.written < 1024 * 1024 + 512 * 1024 && rounds < 20_000) {
            let bpm = 40 + rounds % 200
            rounds += 1
            sent.append(bpm)
            setter.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(bpm)}")
            #expect(setter.next(where: { $0["class"] == .string("state") }) != nil)
            quiet.send("{\"cmd\":\"ping\"}")
            // In order: the tempo the set broadcast, then the answer to the ping.
            if let event = quiet.next(), event["class"] == .string("tempo"), case .int(let seen)? = event["bpm"] { tempos.append(seen) }
            if quiet.next()?["class"] == .string("pong") { pongs += 1 }
        }
        shutdown(flooder.fd, Int32(SHUT_WR))  // ends the flood: the writer's next send fails
        let flooded = flood.join()
        #expect(pongs == rounds)
        #expect(tempos == sent)
        // It really flooded meanwhile (more than its socket's buffers hold: the daemon read it).
        #expect(flooded >= 1024 * 1024, "\(flooded) bytes of blank lines")
        // The flooder, half-closed, is still served (blank lines are keep-alives, not errors).
        setter.send("{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":250}")
        #expect(flooder.next(where: { $0["class"] == .string("tempo") && $0["bpm"] == .int(250) }) != nil)
    }

    // MARK: Linear work, counted

    /// Whether callgrind is there to count with (Debian: valgrind), and can run the build's
    /// flywheeld: valgrind cannot run a program built with a sanitizer.
    static let callgrind = access("/usr/bin/valgrind", X_OK) == 0 && FaultyPeer.sanitizer == nil
    static let skipped = FaultyPeer.sanitizer.map { "skipped: valgrind cannot run flywheeld built with --sanitize=\($0)" }
        ?? "skipped: valgrind (callgrind) is not installed"

    /// The instructions flywheeld executes inside the function whose mangled name starts with
    /// `prefix` and ends with `suffix` (found in the binary with nm), while `work` runs against a
    /// daemon started with `arguments` under callgrind. Hashing is made deterministic, so the count
    /// is the same on every run.
    static func instructions(in prefix: String, _ suffix: String, arguments: [String], _ work: (DaemonProcess) throws -> Void) throws -> Int {
        let daemonPath = ChildProcess.product("flywheeld")
        let symbols = ChildProcess.run("/usr/bin/nm", [daemonPath]).out.split(separator: "\n").compactMap { $0.split(separator: " ").last }
        guard let symbol = symbols.first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }) else {
            throw TestFailure("no symbol \(prefix)…\(suffix) in \(daemonPath)")
        }
        var template = Array("/tmp/flywheel-callgrind-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let output = directory + "/callgrind.out"
        let daemon = try DaemonProcess(
            arguments,
            shellPrefix: "exec valgrind --tool=callgrind --callgrind-out-file=\(output) --collect-atstart=no '--toggle-collect=\(symbol)' \"$0\" \"$@\";",
            extraEnvironment: ["SWIFT_DETERMINISTIC_HASHING=1"])
        try work(daemon)
        _ = daemon.stop()
        let text = RepositoryPaths.read(output) ?? ""
        unlink(output)
        rmdir(directory)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }),
            let count = line.split(separator: " ").last.flatMap({ Int($0) })
        else { throw TestFailure("no callgrind total in \(output)") }
        return count
    }

    /// One command line of `count` distinct keys besides `cmd` (an unknown field: an error answer).
    static func manyKeys(_ count: Int) -> String {
        let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")  // never "cmd"
        var line = "{\"cmd\":\"ping\""
        for index in 0..<count {
            var name = "", rest = index
            repeat { name.append(digits[rest % 36]); rest /= 36 } while rest > 0
            line += ",\"\(name)\":0"
        }
        return line + "}"
    }

    @Test("a 64 KiB line of 7,400 keys costs what one of 3,700 does (parsing stops at the 65th key: it cost milliseconds whole), and a neighbour is answered")
    func manyKeysBounded() throws {
        guard Self.callgrind else {
            print(Self.skipped)
            return
        }
        #expect(Self.manyKeys(7400).utf8.count <= 64 * 1024)
        var counts: [Int] = []
        for keys in [3700, 7400] {
            // The object's parse (the line's UTF-8 check before it is linear in its bytes, and cheap).
            counts.append(try Self.instructions(in: "$s12FlywheelCore10JSONParserV6object", "F", arguments: ["--frames", "0"]) { daemon in
                let client = try TestClient(daemon.socketPath, timeoutSeconds: 120)
                _ = client.next()
                let neighbour = try TestClient(daemon.socketPath, timeoutSeconds: 120)
                _ = neighbour.next()
                client.send(Self.manyKeys(keys))
                let answer = client.next()
                #expect(answer?["code"] == .string("invalid-json"))
                #expect(answer?["message"]?.stringValue?.contains("an object of more than 64 members") == true, "\(String(describing: answer))")
                #expect(HostilePeerTests.pong(neighbour))
            })
        }
        // Bounded: twice the keys, the same work (linear would be 2×, the old quadratic check 4×).
        let ratio = Double(counts[1]) / Double(counts[0])
        print("parse instructions for 3,700 and 7,400 keys: \(counts), ratio \(ratio)")
        #expect(counts[0] > 0 && ratio < 1.1, "\(counts): \(ratio)")
    }

    /// A configuration of `count` devices (PowerMates at paths that do not exist).
    static func devices(_ count: Int) -> String {
        let entries = (0..<count).map { "{ profile: 'powermate', path: '/dev/input/by-id/flywheel-test-\($0)' }" }
        return "{ devices: [\n" + entries.joined(separator: ",\n") + "\n] }"
    }

    @Test("SIGHUP with 1,000 devices costs about twice the instructions of 500 (linear: it was quadratic in the devices' lines)")
    func reloadDevicesLinear() throws {
        guard Self.callgrind else {
            print(Self.skipped)
            return
        }
        var counts: [Int] = []
        for count in [500, 1000] {
            let path = DaemonConfigurationTests.write(Self.devices(count))
            counts.append(try Self.instructions(in: "$s14FlywheelDaemon0B0C6reload", "F", arguments: ["--config", path, "--frames", "0", "--no-devices"]) { daemon in
                let client = try TestClient(daemon.socketPath, timeoutSeconds: 120)
                _ = client.next()
                daemon.signal(SIGHUP)
                #expect(client.next(where: { $0["class"] == .string("state") }) != nil)
                #expect(HostilePeerTests.pong(client))
            })
            unlink(path)
        }
        let ratio = Double(counts[1]) / Double(counts[0])
        print("reload instructions for 500 and 1,000 devices: \(counts), ratio \(ratio)")
        #expect(counts[0] > 0 && ratio < 2.5, "\(counts): \(ratio)")
    }
}
