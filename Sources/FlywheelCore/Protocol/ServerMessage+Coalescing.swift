extension ServerMessage {
    /// The same message, coalescing by `key` in a client's queue: an unsent message with the same
    /// key is replaced by this one (latest wins), so a burst of state changes costs one slot.
    public func coalescing(by key: String) -> ServerMessage {
        ServerMessage(messageClass: messageClass, wire: wire, seqIndex: seqIndex, isFrame: isFrame, coalescingKey: key)
    }

    init(messageClass: MessageClass, wire: [UInt8], seqIndex: Int, isFrame: Bool, coalescingKey: String?) {
        self.messageClass = messageClass
        self.wire = wire
        self.seqIndex = seqIndex
        self.isFrame = isFrame
        self.coalescingKey = coalescingKey
    }
}
