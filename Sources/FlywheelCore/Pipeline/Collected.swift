/// What a step appends to a fresh array, as that array: for the cold paths (a button, a lift, a
/// client's command, a reload) that hand their events on as a value. The event path appends to
/// the array or outbox it keeps from turn to turn instead.
@inlinable
func collected<Element>(_ step: (inout [Element]) -> Void) -> [Element] {
    var elements: [Element] = []
    step(&elements)
    return elements
}

extension Outbox {
    /// What `step` adds to a fresh outbox, each message of its own (for the cold paths, as
    /// ``collected(_:)``).
    static func collected(_ step: (Outbox) -> Void) -> [ServerMessage] {
        let outbox = Outbox()
        step(outbox)
        return outbox.messages
    }
}
