/// A recorded or simulated input timeline played from a start time: which items are due, and
/// when the next one is. Pure: the caller says what time it is.
public struct Playback: Sendable {
    /// The items, with times from the start of the timeline, in order.
    public let items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)]
    /// When the timeline ends (a loop starts again then).
    public let endNanoseconds: Nanoseconds
    /// The device that plays it.
    public let device: InputDevice
    /// Whether it starts again at its end. A timeline of zero length never loops (it would
    /// start again at the same instant forever).
    public let loops: Bool
    /// When the current pass started, on the pipeline's clock.
    public private(set) var startNanoseconds: Nanoseconds
    var index = 0

    /// A playback starting at `start`.
    public init(
        items: [(timeNanoseconds: Nanoseconds, action: DeviceInput.Action)], endNanoseconds: Nanoseconds, device: InputDevice,
        loops: Bool, start: Nanoseconds
    ) {
        self.items = items
        self.endNanoseconds = max(endNanoseconds, items.last?.timeNanoseconds ?? 0)
        self.device = device
        self.loops = loops && self.endNanoseconds > 0
        self.startNanoseconds = start
    }

    /// When the next item is due (or the next pass starts); nil when the playback is over.
    public var nextDeadline: Nanoseconds? {
        if index < items.count { return startNanoseconds + items[index].timeNanoseconds }
        return loops ? startNanoseconds + endNanoseconds : nil
    }

    /// Takes the next item if it is due by `now` (starting the next pass first when a loop ends).
    public mutating func next(dueBy now: Nanoseconds) -> DeviceInput? {
        if index >= items.count, loops, startNanoseconds + endNanoseconds <= now {
            startNanoseconds += endNanoseconds
            index = 0
        }
        guard index < items.count, startNanoseconds + items[index].timeNanoseconds <= now else { return nil }
        defer { index += 1 }
        return DeviceInput(items[index].action, at: startNanoseconds + items[index].timeNanoseconds)
    }
}
