/// A buffer one turn of the pipeline fills and the next reuses (the pipeline's messages, the
/// controls' and the knobs' events), so a turn allocates no array: taken out while its owner is
/// changed meanwhile, given back emptied.
struct TurnBuffer<Element> {
    private var storage: [Element] = []

    /// A buffer with room for `capacity` elements made now (the first turn does not grow it).
    init(capacity: Int = 8) { storage.reserveCapacity(capacity) }

    /// The buffer, empty, for this turn.
    mutating func take() -> [Element] {
        let buffer = storage
        storage = []
        return buffer
    }

    /// The turn's buffer back, emptied in place (it is the only reference to it then).
    mutating func giveBack(_ buffer: inout [Element]) {
        buffer.clearForNextTurn()
        storage = buffer
    }
}

extension Array {
    /// Empties a buffer kept from turn to turn, so nothing of this turn stays behind: its storage
    /// is kept for the next turn unless an unusual turn grew it past `keptCapacity` elements,
    /// which lets it go, so that one burst does not hold its memory for good.
    public mutating func clearForNextTurn(keptCapacity: Int = 256) {
        if capacity > keptCapacity {
            self = []
        } else if !isEmpty {
            removeAll(keepingCapacity: true)
        }
    }
}

extension TurnBuffer: Sendable where Element: Sendable {}
