import CLinux
import Glibc

/// Watches directories with inotify for entries created, deleted, renamed or changed in their
/// attributes (udev applying permissions). One descriptor for the event loop; no polling.
public final class DirectoryWatcher {
    /// One change.
    public struct Change: Sendable, Hashable {
        /// The watched directory.
        public var directory: String
        /// The entry's name within it ("" for the directory itself).
        public var name: String
        /// The entry appeared (created or moved in).
        public var created: Bool
        /// The entry went away (deleted or moved out).
        public var deleted: Bool
        /// The entry's attributes changed (mode, owner, ACL).
        public var attributes: Bool
    }

    /// The inotify descriptor (non-blocking).
    public let fd: Int32
    var directories: [Int32: String] = [:]

    /// Creates the watcher.
    public init() throws(SystemError) {
        fd = try Syscall.call("inotify_init1", "the device watcher") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { Glibc.close(fd) }

    /// Watches `directory`. When it does not exist yet (no input device has ever been plugged in,
    /// so there is no /dev/input), its nearest existing ancestor is watched instead, so its creation
    /// is a change too; returns false then. Watching one twice is harmless.
    @discardableResult
    public func watch(_ directory: String) throws(SystemError) -> Bool {
        guard !directories.values.contains(directory) else { return true }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE_SELF)
        let wd = inotify_add_watch(fd, directory, mask)
        if wd < 0 {
            if errno == ENOENT || errno == ENOTDIR {
                if let slash = directory.lastIndex(of: "/"), directory != "/" {
                    let parent = slash == directory.startIndex ? "/" : String(directory[..<slash])
                    try watch(parent)
                }
                return false
            }
            throw SystemError(function: "inotify_add_watch", subject: directory, errno: errno)
        }
        directories[wd] = directory
        return true
    }

    /// The changes waiting now.
    public func read() throws(SystemError) -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN { return changes }
                if errno == EINTR { continue }
                throw SystemError(function: "read", subject: "the device watcher's inotify descriptor", errno: errno)
            }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += header + length
                if mask & UInt32(IN_IGNORED) != 0 { directories[wd] = nil; continue }
                guard let directory = directories[wd] else { continue }
                changes.append(Change(
                    directory: directory, name: name,
                    created: mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                    deleted: mask & UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF) != 0,
                    attributes: mask & UInt32(IN_ATTRIB) != 0))
            }
        }
    }
}
