/// A recorded or simulated input timeline played from a start time: which items are due, and
/// when the next one is. Pure: the caller says what time it is.
public struct Playback: Sendable {
    /// What is played: the timeline and its device, shared and never changed (a playback is
    /// copied as it advances; its items and device are not).
    public final class Source: Sendable {
        /// The items, with times from the start of the timeline, in order.
        public let items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)]
        /// When the timeline ends (a loop starts again then).
        public let endNanoseconds: Nanoseconds
        /// The device that plays it.
        public let device: InputDevice
        /// Whether it starts again at its end.
        package let loops: Bool

        init(items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)], endNanoseconds: Nanoseconds, device: InputDevice, loops: Bool) {
            self.items = items
            self.endNanoseconds = endNanoseconds
            self.device = device
            self.loops = loops
        }
    }

    /// The timeline and its device.
    public let source: Source
    /// When the current pass started, on the pipeline's clock.
    package private(set) var startNanoseconds: Nanoseconds
    private(set) var index = 0
    /// Whether a playback that does not loop has reached its end (its device is then removed).
    public private(set) var isOver = false
    /// When the next item is due (or the next pass starts, or a playback that does not loop ends);
    /// nil when the playback is over. Kept
    /// up to date as items are taken (asked at every step and wake-up).
    public private(set) var nextDeadline: Nanoseconds?

    /// A playback starting at `start`. A timeline of zero length never loops (it would start
    /// again at the same instant forever).
    public init(
        items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)], endNanoseconds: Nanoseconds, device: InputDevice,
        loops: Bool, start: Nanoseconds
    ) {
        let end = max(endNanoseconds, items.last?.timeNanoseconds ?? 0)
        source = Source(items: items, endNanoseconds: end, device: device, loops: loops && end > 0)
        self.startNanoseconds = start
        nextDeadline = computedDeadline
    }

    /// The items, with times from the start of the timeline, in order.
    public var items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)] { source.items }
    /// When the timeline ends (a loop starts again then).
    public var endNanoseconds: Nanoseconds { source.endNanoseconds }
    /// The device that plays it.
    public var device: InputDevice { source.device }
    /// Whether it starts again at its end.
    package var loops: Bool { source.loops }

    /// ``nextDeadline`` worked out from where the playback is.
    var computedDeadline: Nanoseconds? {
        let items = source.items
        if index < items.count { return startNanoseconds + items[index].timeNanoseconds }
        return isOver ? nil : startNanoseconds + source.endNanoseconds
    }

    /// The end's time, once, if a playback that does not loop has played every item and its end
    /// is due by `now`; it is then over.
    public mutating func end(dueBy now: Nanoseconds) -> Nanoseconds? {
        guard !source.loops, !isOver, index >= source.items.count, startNanoseconds + source.endNanoseconds <= now else { return nil }
        isOver = true
        nextDeadline = nil
        return startNanoseconds + source.endNanoseconds
    }

    /// Takes the next item if it is due by `now` (starting the next pass first when a loop ends).
    public mutating func next(dueBy now: Nanoseconds) -> DeviceInput? {
        let items = source.items
        if index >= items.count, source.loops, startNanoseconds + source.endNanoseconds <= now {
            startNanoseconds += source.endNanoseconds
            index = 0
        }
        guard index < items.count, startNanoseconds + items[index].timeNanoseconds <= now else {
            nextDeadline = computedDeadline  // a loop may have started its next pass
            return nil
        }
        defer {
            index += 1
            nextDeadline = computedDeadline
        }
        return DeviceInput(items[index].action, at: startNanoseconds + items[index].timeNanoseconds)
    }
}
