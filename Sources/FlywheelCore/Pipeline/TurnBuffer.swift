/// A buffer one turn of the pipeline fills and the next reuses (the controls' and the knobs'
/// events), so a turn allocates no array: taken out while its owner is changed meanwhile, given
/// back after. A turn's elements follow what earlier turns left (``take()`` says where they
/// begin): emptying it costs a call that replaces the whole range, so it is emptied only once it
/// holds ``clearedAt`` elements, not every turn.
struct TurnBuffer<Element> {
    private var storage: [Element] = []

    /// A buffer with room for `capacity` elements made now (the first turn does not grow it).
    init(capacity: Int = clearedAt) { storage.reserveCapacity(capacity) }

    /// Elements kept before the buffer is emptied.
    static var clearedAt: Int { 32 }

    /// The buffer for this turn, and where this turn's elements will begin in it.
    mutating func take() -> (buffer: [Element], start: Int) {
        let buffer = storage
        storage = []
        return (buffer, buffer.count)
    }

    /// The turn's buffer back (it is the only reference to it then), emptied when full enough.
    mutating func giveBack(_ buffer: inout [Element]) {
        if buffer.count >= Self.clearedAt { buffer.clearForNextTurn() }
        storage = buffer
    }
}

extension Array {
    /// Empties a buffer kept from turn to turn, so nothing of this turn stays behind: its storage
    /// is kept for the next turn unless an unusual turn grew it past `keptCapacity` elements,
    /// which lets it go, so that one burst does not hold its memory for good.
    mutating func clearForNextTurn(keptCapacity: Int = 256) {
        if capacity > keptCapacity {
            self = []
        } else if !isEmpty {
            removeAll(keepingCapacity: true)
        }
    }
}

extension TurnBuffer: Sendable where Element: Sendable {}
