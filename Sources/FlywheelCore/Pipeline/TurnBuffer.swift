extension Array {
    /// Empties a buffer kept from turn to turn (the pipeline's messages, the controls' and knobs'
    /// events), so nothing of this turn stays behind: its storage is kept for the next turn unless
    /// an unusual turn grew it past `keptCapacity` elements, which lets it go, so that one burst
    /// does not hold its memory for good.
    public mutating func clearForNextTurn(keptCapacity: Int = 256) {
        if capacity > keptCapacity {
            self = []
        } else if !isEmpty {
            removeAll(keepingCapacity: true)
        }
    }
}
