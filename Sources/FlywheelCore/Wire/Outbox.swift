/// The messages of one turn of the pipeline, on their way to the clients: the daemon keeps one
/// from turn to turn. A control's event, the message sent most often, is encoded straight into
/// one byte buffer the outbox keeps (no array and no heap block a message, nothing to free); any
/// other message is kept as the ``ServerMessage`` it is. The order of the turn is kept across
/// both. A message a client must queue is copied out then (``message(at:)``).
package final class Outbox {
    /// Where one message is: a span of ``bytes`` or one of ``others``.
    @usableFromInline
    struct Entry {
        @usableFromInline var messageClass: MessageClass
        /// For a frame, what it coalesces by (its control or the mode switch); nil for any other message.
        @usableFromInline var frameKey: FrameKey?
        /// The index in ``others``, or -1 when the message is in ``bytes``.
        @usableFromInline var other: Int
        @usableFromInline var start: Int
        @usableFromInline var seqIndex: Int
        @usableFromInline var end: Int
    }

    // Not checked for exclusivity at run time (a check is two runtime calls an access): an
    // outbox is one turn's, filled and read by one thread, and no access to it reaches it again.
    // Visible to the outbox's inlinable accessors, and to nothing else outside the outbox. (This
    // toolchain does not inline an `@inlinable package` member into another module: from the
    // daemon and the server they are calls, once a turn or once a message.)
    @exclusivity(unchecked) @usableFromInline var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) @usableFromInline var entryCapacity: Int
    @exclusivity(unchecked) @usableFromInline var entryCount = 0
    /// While above 0, the bytes are lent out (``beginLending()``) and the outbox must not change.
    @exclusivity(unchecked) @usableFromInline var lent = 0
    @exclusivity(unchecked) @usableFromInline var others: [ServerMessage] = []
    @exclusivity(unchecked) @usableFromInline var bytes: UnsafeMutableRawPointer
    @exclusivity(unchecked) @usableFromInline var byteCapacity: Int
    @exclusivity(unchecked) @usableFromInline var byteCount = 0

    /// Room kept from turn to turn; a turn that grew the outbox past it gives the rest back.
    @inlinable static var keptByteCapacity: Int { 16 * 1024 }
    @inlinable static var keptEntryCapacity: Int { 256 }
    static let initialEntryCapacity = 16
    static let initialByteCapacity = 4096

    /// An empty outbox, with room for a usual turn made now (the first turn does not grow it).
    package init() {
        byteCapacity = Self.initialByteCapacity
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCapacity, alignment: 8)
        entryCapacity = Self.initialEntryCapacity
        entries = UnsafeMutablePointer<Entry>.allocate(capacity: entryCapacity)
    }

    deinit {
        bytes.deallocate()
        entries.deallocate()  // entries are plain values: nothing to deinitialize
    }

    /// How many messages it holds.
    @inlinable package var count: Int { entryCount }
    /// Whether it holds none.
    @inlinable package var isEmpty: Bool { entryCount == 0 }

    /// Lends the outbox's bytes out until ``endLending()``: the pointers ``encodedWire(at:)``
    /// gives stay valid only while the outbox is not changed, so a change meanwhile (an append, or
    /// emptying it, from something the sending reached) is a bug, and traps rather than sending
    /// freed bytes. (A broadcast lends through ``lendEach(_:)``, which calls these two.)
    @inlinable package func beginLending() { lent += 1 }

    /// Ends a ``beginLending()``.
    @inlinable package func endLending() {
        precondition(lent > 0, "an outbox's lending ended more often than it began")
        lent -= 1
    }

    @inlinable func checkNotLent() {
        precondition(lent == 0, "an outbox was changed while its bytes were lent out to be sent")
    }

    private func add(_ entry: Entry) {
        if entryCount == entryCapacity { growEntries() }
        (entries + entryCount).initialize(to: entry)
        entryCount &+= 1
    }

    /// Adds a control's event, encoded where it is kept.
    package func append(_ event: ControlEvent) {
        checkNotLent()
        // The room the one encoder gives a control event (the longest needs less).
        let room = ServerMessage.controlEventCapacity
        if byteCapacity - byteCount < room { grow() }
        var out = ByteWriter(UnsafeMutableRawBufferPointer(start: bytes + byteCount, count: room))
        let seqIndex = event.writeWire(into: &out)
        add(Entry(
            messageClass: event.messageClass, frameKey: event.frameKey, other: -1, start: byteCount, seqIndex: byteCount &+ seqIndex,
            end: byteCount &+ out.count))
        byteCount &+= out.count
    }

    /// Adds a message.
    package func append(_ message: ServerMessage) {
        checkNotLent()
        add(Entry(messageClass: message.messageClass, frameKey: nil, other: others.count, start: 0, seqIndex: 0, end: 0))
        others.append(message)
    }

    /// Adds messages, in their order.
    package func append(contentsOf messages: [ServerMessage]) {
        for message in messages { append(message) }
    }

    /// The class of the message at `index`.
    @inlinable package func messageClass(at index: Int) -> MessageClass { entry(at: index).messageClass }

    @inlinable func entry(at index: Int) -> Entry {
        precondition(index >= 0 && index < entryCount, "an outbox has no message \(index)")
        return entries[index]
    }

    /// The message at `index` as a ``ServerMessage`` of its own (a copy of its bytes).
    @usableFromInline package func message(at index: Int) -> ServerMessage {
        let entry = entry(at: index)
        if entry.other >= 0 { return others[entry.other] }
        let wire = [UInt8](UnsafeRawBufferPointer(start: bytes + entry.start, count: entry.end &- entry.start))
        return ServerMessage(
            messageClass: entry.messageClass, wire: wire, seqIndex: entry.seqIndex &- entry.start, isFrame: entry.frameKey != nil,
            coalescingKey: entry.frameKey?.rawValue)
    }

    /// Every message, in order, each of its own.
    package var messages: [ServerMessage] { (0..<count).map(message(at:)) }

    /// The bytes of the message at `index` when the outbox encoded it (as ``ServerMessage/wire``),
    /// and where its seq goes in them; nil for a message added as a ``ServerMessage``
    /// (``message(at:)`` is that message). The bytes are the outbox's own: valid until it is next
    /// changed (send them between ``beginLending()`` and ``endLending()``).
    @inlinable package func encodedWire(at index: Int) -> (wire: UnsafeRawBufferPointer, seqIndex: Int)? {
        let entry = entry(at: index)
        guard entry.other < 0 else { return nil }
        return (UnsafeRawBufferPointer(start: bytes + entry.start, count: entry.end &- entry.start), entry.seqIndex &- entry.start)
    }

    /// Lends each message out in order, for the duration of `body`: its bytes (the outbox's own,
    /// or the message's), where its seq goes in them, its class, and the message as a
    /// ``ServerMessage`` of its own for a receiver that must keep it (asked only then). The
    /// outbox is lent throughout, so nothing `body` reaches may change it (that traps).
    @inlinable @inline(__always) package func lendEach(
        _ body: (_ wire: UnsafeRawBufferPointer, _ seqIndex: Int, _ messageClass: MessageClass, _ message: () -> ServerMessage) -> Void
    ) {
        beginLending()
        defer { endLending() }
        // The message, for a receiver that must keep it, is asked of the outbox unretained: the
        // caller holds the outbox throughout, and a closure holding it would retain it at every
        // message.
        let unretained = Unmanaged.passUnretained(self)
        for index in 0..<entryCount {
            if let (wire, seqIndex) = encodedWire(at: index) {
                body(wire, seqIndex, entries[index].messageClass) { unretained._withUnsafeGuaranteedRef { $0.message(at: index) } }
            } else {
                let message = others[entries[index].other]
                message.wire.withUnsafeBytes { wire in body(wire, message.seqIndex, message.messageClass) { message } }
            }
        }
    }

    /// Empties it for the next turn, keeping its room (unless an unusual turn grew it past what
    /// is kept, which it gives back: one burst does not hold its memory for good).
    @inlinable package func removeAll() {
        checkNotLent()
        if !others.isEmpty { others.clearForNextTurn() }
        entryCount = 0
        byteCount = 0
        if byteCapacity > Self.keptByteCapacity || entryCapacity > Self.keptEntryCapacity { giveBackRoom() }
    }

    /// The room an unusual turn grew past what is kept, given back.
    @usableFromInline func giveBackRoom() {
        if byteCapacity > Self.keptByteCapacity {
            bytes.deallocate()
            byteCapacity = Self.initialByteCapacity
            bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCapacity, alignment: 8)
        }
        if entryCapacity > Self.keptEntryCapacity {
            entries.deallocate()
            entryCapacity = Self.initialEntryCapacity
            entries = UnsafeMutablePointer<Entry>.allocate(capacity: entryCapacity)
        }
    }

    /// Doubles the room for entries, keeping those it holds.
    private func growEntries() {
        let capacity = entryCapacity * 2
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        grown.moveInitialize(from: entries, count: entryCount)
        entries.deallocate()
        entries = grown
        entryCapacity = capacity
    }

    /// Doubles the byte buffer, keeping what it holds.
    private func grow() {
        let capacity = byteCapacity * 2
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: bytes, byteCount: byteCount)
        bytes.deallocate()
        bytes = grown
        byteCapacity = capacity
    }
}
