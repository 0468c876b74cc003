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
