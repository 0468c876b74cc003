import CLinux
import Glibc
import Testing

@testable import FlywheelIO

/// ``ALSAControl/readEvents()``'s bound, driven past without a sound card: the control is opened on
/// a FIFO holding event records as the kernel writes them (`struct snd_ctl_event`), far more than
/// the 32 one call reads. `flywheel alsa` reads once a turn of its loop, so the bound is what one
/// turn takes; the rest stays readable for the next turns, in order.
@Suite("ALSA control events: at most 32 a read, the rest on later reads")
struct ALSAControlEventsTests {
    /// An element event (`SNDRV_CTL_EVENT_ELEM`) for `numid`, with `mask`, as the kernel writes it.
    static func record(numid: UInt32, mask: UInt32 = UInt32(SNDRV_CTL_EVENT_MASK_VALUE)) -> [UInt8] {
        var event = snd_ctl_event()
        event.type = Int32(SNDRV_CTL_EVENT_ELEM.rawValue)
        event.data.elem.mask = mask
        event.data.elem.id.numid = numid
        return withUnsafeBytes(of: event) { Array($0) }
    }

    /// A control opened on a new FIFO (read and write, non-blocking, as on a card).
    static func fifoControl() throws -> ALSAControl {
        var template = Array("/tmp/flywheel-alsa-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        let path = directory + "/controlC0"
        #expect(mkfifo(path, 0o600) == 0)
        let control = try ALSAControl(path: path)
        unlink(path)
        rmdir(directory)
        return control
    }

    /// Writes `records` to the control's FIFO (at most a pipe's 64 KiB).
    static func send(_ records: [[UInt8]], to control: ALSAControl) {
        let bytes = Array(records.joined())
        #expect(bytes.withUnsafeBytes { write(control.fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Whether the control's descriptor has more to read (what the loop's poll sees).
    static func readable(_ control: ALSAControl) -> Bool {
        var entry = pollfd(fd: control.fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    /// Reads until the control would block: each read's events.
    static func drain(_ control: ALSAControl) throws -> [[ALSAControl.Event]] {
        var reads: [[ALSAControl.Event]] = []
        while case .processed(let events) = try control.readEvents() {
            reads.append(events)
            if reads.count > 1000 { break }  // a read that never ends would otherwise hang the test
        }
        return reads
    }

    @Test("900 pending events (199 elements changing, then the volume's last change): 32 a read, the descriptor still readable after the first, all 900 in order over 29 reads, the volume's change in the last")
    func burstOverBound() throws {
        let control = try Self.fifoControl()
        // 899 changes of elements 2…200 in turn, then one of element 1 (the volume): 900 records, 64,800 bytes.
        let others = (0..<899).map { UInt32(2 + $0 % 199) }
        let numids = others + [1]
        Self.send(numids.map { Self.record(numid: $0) }, to: control)

        guard case .processed(let first) = try control.readEvents() else {
            Issue.record("nothing read from 900 pending events")
            return
        }
        #expect(first.count == 32)
        #expect(Self.readable(control), "868 events still pending, yet the descriptor is not readable")
        let reads = [first] + (try Self.drain(control))
        #expect(reads.map(\.count) == Array(repeating: 32, count: 28) + [4], "\(reads.map(\.count))")
        #expect(reads.joined().map(\.numid) == numids)
        #expect(reads.joined().allSatisfy { $0.valueChanged && !$0.removed })
        #expect(reads.last?.last?.numid == 1)
        #expect(!Self.readable(control))
        #expect(try control.readEvents() == .wouldBlock)
    }

    @Test("after a burst has been read, later events are read as they come: a removal and a change, then a burst of 40 over two reads")
    func laterTurnsCatchUp() throws {
        let control = try Self.fifoControl()
        Self.send((0..<100).map { Self.record(numid: UInt32($0 % 7 + 2)) }, to: control)
        #expect(try Self.drain(control).map(\.count) == [32, 32, 32, 4])

        Self.send([Self.record(numid: 3, mask: UInt32.max), Self.record(numid: 1)], to: control)
        let next = try Self.drain(control)
        #expect(next.map { $0.map(\.numid) } == [[3, 1]])
        #expect(next.first?.first?.removed == true && next.first?.last?.valueChanged == true)

        Self.send((0..<40).map { Self.record(numid: UInt32(40 - $0)) }, to: control)
        let last = try Self.drain(control)
        #expect(last.map(\.count) == [32, 8])
        #expect(last.joined().map(\.numid) == (1...40).reversed().map { UInt32($0) })
    }
}
