import FlywheelCore
import Glibc
import Testing
@testable import FlywheelIO

/// Pacing costs the daemon nothing while a client waits for its window.
@Suite("Client pacing", .serialized)
struct ClientPacingTests {
    @Test("a paused client that closes with bytes unread leaves nothing ready in the loop until its window ends, then is read to its end and let go")
    func pausedClientHangingUp() throws {
        try SocketServerFairnessTests.withServer { path, loop, server in
            server.readWindowNanoseconds = 3_600_000_000_000  // an hour: the window cannot end during the test
            server.hello = { time in ServerMessage(.pong, at: time) }
            let flooder = SocketServerFairnessTests.connect(path)
            while server.clientCount < 1 { try loop.runOnce(timeoutMilliseconds: 1000) }
            _ = SocketServerFairnessTests.received(flooder)  // unread, the hello would make the close a reset
            _ = fcntl(flooder, F_SETFL, fcntl(flooder, F_GETFL) | O_NONBLOCK)
            let client = try #require(server.clients.values.first)
            server.bytesPerWindow = 1  // one read uses the window
            let blank = [UInt8](repeating: 0x0A, count: 4096)
            for _ in 0..<2 { _ = blank.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, 0) } }
            var turns = 0
            while !client.paused && turns < 100 {  // read until it has used its window
                try loop.runOnce(timeoutMilliseconds: 10)
                turns += 1
            }
            _ = blank.withUnsafeBytes { send(flooder, $0.baseAddress, $0.count, 0) }  // waits unread
            #expect(client.paused)
            #expect(SocketServerFairnessTests.received(flooder).isEmpty)
            close(flooder)  // gone altogether: the kernel says EPOLLHUP whatever the server watches for
            try loop.runOnce(timeoutMilliseconds: 0)
            var epollFD = pollfd(fd: loop.epoll, events: Int16(POLLIN), revents: 0)  // readable: events are ready
            let ready = poll(&epollFD, 1, 0)
            // Something ready would wake the loop at once, turn after turn, for nothing: a spin
            // until the window ends (10 ms in the daemon) for every flooder that hangs up.
            #expect(ready == 0)
            #expect(server.clientCount == 1)  // its bytes are still to be read and its lines handled
            // The window ends: it is watched again, read to its end and let go.
            server.readWindowNanoseconds = 0
            server.resumePaused()
            turns = 0
            while server.clientCount > 0 && turns < 200 {
                try loop.runOnce(timeoutMilliseconds: 10)
                turns += 1
            }
            #expect(server.clientCount == 0)
        }
    }
}
