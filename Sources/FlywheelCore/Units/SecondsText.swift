extension Int64 {
    /// Nanoseconds as exact decimal seconds with nine digits after the point (`"12.000250000"`):
    /// the form `.edges` files and JSON output use, never rounded through a `Double`.
    public var secondsText: String {
        let sign = self < 0 ? "-" : ""
        let magnitude = self.magnitude
        let fraction = String(magnitude % 1_000_000_000)
        return "\(sign)\(magnitude / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }
}
