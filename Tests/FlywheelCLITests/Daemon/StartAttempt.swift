import Glibc

/// One attempt to start a real flywheeld (a ``DaemonProcess`` not waited on): whether it became
/// ready (READY=1 over NOTIFY_SOCKET; then it is stopped) or exited first, and what it wrote on
/// standard error. Never hangs: a daemon neither ready nor gone after 30 s is stopped and
/// counted as serving.
struct StartAttempt {
    /// It became ready (or was still running after 30 s): it did not refuse the configuration.
    var served: Bool
    var status: Int32
    var err: String

    /// Starts flywheeld with `arguments` (and `--socket` in its own folder only with `socketOption`).
    static func run(_ arguments: [String], socketOption: Bool) throws -> StartAttempt {
        let daemon = try DaemonProcess(arguments, socketOption: socketOption, waitForReady: false)
        var err: [UInt8] = []
        var ready = false
        var exited = false
        var fds = [pollfd(fd: daemon.notifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: daemon.stderrFD, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !ready && !exited {
            let n = poll(&fds, 2, 30_000)
            if n == 0 { break }  // neither ready nor gone: counted as serving
            if n < 0 { continue }
            if fds[0].revents != 0 {
                let count = recv(daemon.notifyFD, &buffer, buffer.count, 0)
                ready = count > 0 && String(decoding: buffer[0..<count], as: UTF8.self).contains("READY=1")
            }
            if fds[1].revents != 0 {
                let count = read(daemon.stderrFD, &buffer, buffer.count)
                if count > 0 { err += buffer[0..<count] } else { exited = true }
            }
        }
        if !exited { daemon.signal(SIGTERM) }
        let status = daemon.wait()
        daemon.cleanup()
        return StartAttempt(served: !exited, status: status, err: String(decoding: err, as: UTF8.self))
    }
}
