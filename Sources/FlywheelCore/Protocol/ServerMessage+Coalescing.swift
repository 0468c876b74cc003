extension ServerMessage {
    /// The same message, coalescing by `key` in a client's queue: an unsent message with the same
    /// key is replaced by this one (latest wins), so a burst of state changes costs one slot.
    public func coalescing(by key: String) -> ServerMessage {
        ServerMessage(messageClass: messageClass, prefix: prefix, suffix: suffix, isFrame: isFrame, coalescingKey: key)
    }

    init(messageClass: MessageClass, prefix: [UInt8], suffix: [UInt8], isFrame: Bool, coalescingKey: String?) {
        self.messageClass = messageClass
        self.prefix = prefix
        self.suffix = suffix
        self.isFrame = isFrame
        self.coalescingKey = coalescingKey
    }
}
