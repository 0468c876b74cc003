import Glibc

extension FileOutput {
    /// Opens an existing device or FIFO for writing (a raw MIDI port such as /dev/snd/midiC1D0);
    /// the descriptor stays open for the process's life. Opening a FIFO waits for its reader.
    public static func openDevice(_ path: String) throws(SystemError) -> FileOutput {
        let fd = try Syscall.call("open", path) { open(path, O_WRONLY | O_CLOEXEC) }
        return FileOutput(fd: fd, name: path)
    }

    /// Writes all of `bytes`.
    public func write(bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = try Syscall.call("write", name) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            }
            offset += written
        }
    }
}

extension FileOutput {
    /// Opens `path` again without waiting (a FIFO with no reader yet is ENXIO, tried later), then
    /// makes its writes blocking, as ``openDevice(_:)``'s are.
    public static func reopenDevice(_ path: String) throws(SystemError) -> FileOutput {
        let fd = try Syscall.call("open", path) { open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK) }
        do {
            let flags = try Syscall.call("fcntl", path) { fcntl(fd, F_GETFL) }
            _ = try Syscall.call("fcntl", path) { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return FileOutput(fd: fd, name: path)
    }

    /// Closes the descriptor (a port that went away).
    public func close() { Glibc.close(fd) }
}
