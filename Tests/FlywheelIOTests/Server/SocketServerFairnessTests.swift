import FlywheelCore
import Glibc
import Testing
@testable import FlywheelIO

/// A client sending a burst of commands gets a few handled per loop turn, and the state changes
/// they broadcast reach the others once per turn, as the latest value.
@Suite("Socket server fairness", .serialized)
struct SocketServerFairnessTests {
    static func connect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(result == 0)
        return fd
    }

    /// Everything the peer has been sent so far, as lines.
    static func received(_ fd: Int32) -> [String] {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return text.split(separator: "\n").map(String.init)
    }

    /// A server on a fresh socket in a folder of its own; `body` gets the path, loop and server.
    static func withServer(_ body: (String, EventLoop, SocketServer) throws -> Void) throws {
        var template = Array("/tmp/flywheel-fairness-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let path = directory + "/flywheel.sock"
        defer {
            unlink(path + ".lock")
            rmdir(directory)
        }
        let loop = try EventLoop()
        let server = try SocketServer(loop: loop, listener: try UnixListener.bind(path: path))
        defer { server.shutdown() }
        try body(path, loop, server)
    }

    @Test("40 set commands in one write: linesPerTurn handled per turn, the watcher gets one tempo per turn and the last is the newest")
    func burst() throws {
        try Self.withServer { path, loop, server in
            server.bytesPerWindow = 1 << 30  // no pacing: the turns alone are counted
            var handled = 0
            server.onCommand = { _, time in
                handled += 1
                return (ServerMessage(.pong, at: time),
                        [ServerMessage(ControlEvent.tempo(bpm: BPM(integerLiteral: handled), value: handled, phase: .set, timeNanoseconds: time))])
            }
            server.hello = { time in ServerMessage(.pong, at: time) }
            let flooder = Self.connect(path)
            let watcher = Self.connect(path)
            defer {
                close(flooder)
                close(watcher)
            }
            while server.clientCount < 2 { try loop.runOnce(timeoutMilliseconds: 1000) }
            _ = Self.received(watcher)
            let burst = String(repeating: "{\"cmd\":\"set\",\"control\":\"tempo\",\"bpm\":96}\n", count: 40)
            #expect(burst.utf8.count == Array(burst.utf8).withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, 0) })
            try loop.runOnce(timeoutMilliseconds: 1000)
            #expect(handled == SocketServer.linesPerTurn)
            var turns = 1
            while handled < 40 && turns < 100 {
                try loop.runOnce(timeoutMilliseconds: 1000)
                turns += 1
            }
            #expect(handled == 40)
            #expect(turns == 40 / SocketServer.linesPerTurn)  // one batch per turn: all 40 lines came in one read
            let tempos = Self.received(watcher).filter { $0.contains("\"class\":\"tempo\"") }
            #expect(tempos.count == turns)
            #expect(tempos.last?.contains("\"bpm\":40") == true)
        }
    }

    @Test("a client that has used its window is not read until the window ends: its bytes wait in the kernel, its writes go on")
    func pacing() throws {
        try Self.withServer { path, loop, server in
            server.readWindowNanoseconds = 3_600_000_000_000  // an hour: the window cannot end during the test
            server.hello = { time in ServerMessage(.pong, at: time) }
            let flooder = Self.connect(path)
            defer { close(flooder) }
            while server.clientCount < 1 { try loop.runOnce(timeoutMilliseconds: 1000) }
            _ = Self.received(flooder)
            _ = fcntl(flooder, F_SETFL, fcntl(flooder, F_GETFL) | O_NONBLOCK)
            let client = try #require(server.clients.values.first)
            let blank = [UInt8](repeating: 0x0A, count: 4096)
            var rounds = 0
            while !client.paused && rounds < 10_000 {  // write what the socket takes, let the server read
                _ = blank.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, 0) }
                try loop.runOnce(timeoutMilliseconds: 0)
                rounds += 1
            }
            for _ in 0..<16 { _ = blank.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, 0) } }
            for _ in 0..<64 { try loop.runOnce(timeoutMilliseconds: 0) }
            var unread: Int32 = 0
            #expect(ioctl(server.clients.values.first!.fd, UInt(FIONREAD), &unread) == 0)
            #expect(unread > 0)
            #expect(client.paused)
            #expect(client.windowUsed >= server.bytesPerWindow && client.windowUsed < server.bytesPerWindow + ClientConnection.readBudget)
            // Still served: a broadcast reaches it while it is paused.
            server.broadcast([ServerMessage(.pong, at: 0)])
            #expect(Self.received(flooder).count == 1)
        }
    }
}
