extension Int64 {
    /// Nanoseconds as exact decimal seconds with nine digits after the point (`"12.000250000"`):
    /// the form `.edges` files and JSON output use, never rounded through a `Double`.
    public var secondsText: String {
        var bytes: [UInt8] = []
        appendSecondsText(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
