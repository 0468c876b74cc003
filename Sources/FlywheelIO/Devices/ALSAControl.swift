import CLinux
import Glibc

/// A sound card's control device (`/dev/snd/controlC<N>`): its mixer elements read, written and
/// watched through the kernel's ALSA control ioctls (`<sound/asound.h>`), each through the
/// ``Syscall`` seam. Opened non-blocking, so the events it reports are read on a poll loop.
public final class ALSAControl {
    /// A mixer element: an INTEGER (a volume) or a BOOLEAN (a switch).
    public struct Element: Sendable, Hashable {
        /// The kernel's number for it (events name it by this).
        public var numid: UInt32
        public var name: String
        /// A switch (values 0 and 1) rather than a volume.
        public var isBoolean: Bool
        /// How many values (channels) it has.
        public var channels: Int
        /// Its raw values' range.
        public var range: ClosedRange<Int>
        /// Whether it carries dB information (a TLV that can be read).
        public var hasTLV: Bool
    }

    /// One element event (`SNDRV_CTL_EVENT_ELEM`).
    public struct Event: Sendable, Hashable {
        public var numid: UInt32
        /// `SNDRV_CTL_EVENT_MASK_*` bits; all set when the element was removed.
        public var mask: UInt32
        /// The element is gone (the card is going away, or the element was removed).
        public var removed: Bool { mask == UInt32.max }
        /// Its value changed.
        public var valueChanged: Bool { !removed && mask & UInt32(SNDRV_CTL_EVENT_MASK_VALUE) != 0 }
    }

    /// The node it was opened from.
    public let path: String
    /// Its descriptor (non-blocking), for the loop.
    public let fd: Int32
    private var closed = false

    /// Opens `path` (`/dev/snd/controlC0`) for reading and writing.
    public init(path: String) throws(SystemError) {
        self.path = path
        fd = try Syscall.call("open", path) { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
    }

    deinit { close() }

    /// Closes the descriptor (once).
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// The control node of `card`: its number (`0`, `hw:0`) or its id (`Dummy`, as in
    /// `/proc/asound/cards`), found by asking each card's control device for its id.
    public static func path(card: String) throws(SystemError) -> String {
        let number = card.hasPrefix("hw:") ? String(card.dropFirst(3)) : card
        if let index = Int(number), index >= 0 { return "/dev/snd/controlC\(index)" }
        let nodes = (try? FileSystem.listDirectory("/dev/snd"))?.filter { $0.hasPrefix("controlC") }.sorted() ?? []
        for node in nodes {
            guard let control = try? ALSAControl(path: "/dev/snd/" + node) else { continue }
            if (try? control.cardID()) == number { return control.path }
        }
        throw SystemError(function: "open", subject: "the sound card '\(card)' (/dev/snd/controlC*)", errno: ENODEV,
                          hint: "No card has that id now; /proc/asound/cards lists the cards.")
    }

    /// The card's id (`SNDRV_CTL_IOCTL_CARD_INFO`), such as `Dummy`.
    public func cardID() throws(SystemError) -> String {
        var info = snd_ctl_card_info()
        _ = try Syscall.call("ioctl(SNDRV_CTL_IOCTL_CARD_INFO)", path) { ioctl(fd, flywheel_snd_ctl_card_info_request(), &info) }
        return withUnsafeBytes(of: info.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The mixer element named `name` (`Master Playback Volume`), or nil when the card has none.
    public func element(named name: String) throws(SystemError) -> Element? {
        var info = snd_ctl_elem_info()
        flywheel_snd_ctl_id_name(&info.id, name)
        do {
            _ = try Syscall.call("ioctl(SNDRV_CTL_IOCTL_ELEM_INFO)", "\(path) ('\(name)')") { ioctl(fd, flywheel_snd_ctl_elem_info_request(), &info) }
        } catch where error.errno == ENOENT {
            return nil
        }
        let type = info.type
        guard type == SNDRV_CTL_ELEM_TYPE_INTEGER || type == SNDRV_CTL_ELEM_TYPE_BOOLEAN else {
            throw SystemError(function: "ioctl(SNDRV_CTL_IOCTL_ELEM_INFO)", subject: "\(path) ('\(name)')", errno: EINVAL,
                              hint: "The element is neither a volume (INTEGER) nor a switch (BOOLEAN).")
        }
        let boolean = type == SNDRV_CTL_ELEM_TYPE_BOOLEAN
        let low = boolean ? 0 : flywheel_snd_ctl_info_min(&info)
        let high = boolean ? 1 : max(low, flywheel_snd_ctl_info_max(&info))
        return Element(
            numid: info.id.numid, name: name, isBoolean: boolean, channels: Int(min(info.count, 128)), range: low...high,
            hasTLV: info.access & UInt32(SNDRV_CTL_ELEM_ACCESS_TLV_READ) != 0)
    }

    /// The element's TLV words (its dB information); empty when it has none.
    public func tlv(_ element: Element) throws(SystemError) -> [UInt32] {
        guard element.hasTLV else { return [] }
        var tlv = flywheel_snd_ctl_tlv()
        tlv.numid = element.numid
        tlv.length = UInt32(MemoryLayout.size(ofValue: tlv.tlv))
        _ = try Syscall.call("ioctl(SNDRV_CTL_IOCTL_TLV_READ)", "\(path) ('\(element.name)')") { ioctl(fd, flywheel_snd_ctl_tlv_read_request(), &tlv) }
        let words = withUnsafeBytes(of: tlv.tlv) { Array($0.bindMemory(to: UInt32.self)) }
        // The kernel wrote one TLV item: its type, its length in bytes, then that many bytes.
        let count = min(words.count, 2 + Int(words[1]) / 4)
        return Array(words.prefix(count))
    }

    /// The element's values, one per channel.
    public func values(_ element: Element) throws(SystemError) -> [Int] {
        var value = snd_ctl_elem_value()
        value.id.numid = element.numid
        _ = try Syscall.call("ioctl(SNDRV_CTL_IOCTL_ELEM_READ)", "\(path) ('\(element.name)')") { ioctl(fd, flywheel_snd_ctl_elem_read_request(), &value) }
        return (0..<element.channels).map { flywheel_snd_ctl_value_get(&value, UInt32($0)) }
    }

    /// Sets every channel of the element to `raw` (within its range).
    public func write(_ element: Element, raw: Int) throws(SystemError) {
        var value = snd_ctl_elem_value()
        value.id.numid = element.numid
        let clamped = min(max(raw, element.range.lowerBound), element.range.upperBound)
        for channel in 0..<element.channels { flywheel_snd_ctl_value_set(&value, UInt32(channel), clamped) }
        _ = try Syscall.call("ioctl(SNDRV_CTL_IOCTL_ELEM_WRITE)", "\(path) ('\(element.name)')") { ioctl(fd, flywheel_snd_ctl_elem_write_request(), &value) }
    }

    /// Asks for element events on this descriptor (`SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS`).
    public func subscribe() throws(SystemError) {
        var on: Int32 = 1
        _ = try Syscall.call("ioctl(SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS)", path) { ioctl(fd, flywheel_snd_ctl_subscribe_events_request(), &on) }
    }

    /// The element events waiting (at most 32 a call), or would-block when there are none.
    package func readEvents() throws(SystemError) -> IOResult<[Event]> {
        var records = [snd_ctl_event](repeating: snd_ctl_event(), count: 32)
        let result = try Syscall.nonBlocking("read", path) { records.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
        guard case .processed(let bytes) = result else { return .wouldBlock }
        if bytes == 0 { throw SystemError(function: "read", subject: path, errno: ENODEV) }
        return .processed(records.prefix(bytes / MemoryLayout<snd_ctl_event>.size).compactMap { record in
            var record = record
            guard record.type == Int32(SNDRV_CTL_EVENT_ELEM.rawValue) else { return nil }
            return Event(numid: flywheel_snd_ctl_event_numid(&record), mask: flywheel_snd_ctl_event_mask(&record))
        })
    }
}
