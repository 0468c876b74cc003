import FlywheelCore
import Glibc
import Testing

/// A real flywheeld fed a file of commands the way `socat` or a shell script does: everything
/// written first, the sending side shut, the answers read afterwards by a consumer slower than
/// the daemon answers (a `while read line` loop).
@Suite("flywheeld holds back a pipelining client", .serialized)
struct DaemonBackpressureTests {
    @Test("a 3,000-line file of set commands, written, shut (SHUT_WR), then read one answer per 2 ms: 3,000 answers in order, no queue-overflow")
    func socatFile() throws {
        let daemon = try DaemonProcess(["--frames", "0"])
        defer { _ = daemon.stop() }
        let count = 3000
        var file = ""
        for index in 0..<count { file += "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":\(40 + index % 200)}\n" }
        let client = try TestClient(daemon.socketPath, timeoutSeconds: 10)
        #expect(client.send(Array(file.utf8)))
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        // Read until the answers are all in (the daemon keeps a half-closed client: the stream ends
        // only on an error, or after 10 s of silence), at a script's pace: slower than the daemon
        // answers, so its queue would fill.
        var answers: [Int] = []
        var errors: [String] = []
        while answers.count < count, let message = client.next() {
            usleep(2000)
            if message["class"] == .string("state"), case .int(let bpm)? = message["tempo"]?["bpm"] { answers.append(bpm) }
            if message["class"] == .string("error") { errors.append(message.encoded()) }
        }
        #expect(errors.isEmpty, "\(errors.first ?? "")")
        #expect(answers.count == count)
        #expect(answers.elementsEqual((0..<count).map { 40 + $0 % 200 }))
    }
}
