/// How fast the hand turns a knob, in detents per second, from the timestamps of its moves (the
/// kernel's, for real devices): the detents moved since a reference move over the time since it.
/// The reference is the newest move at least ``windowNanoseconds`` old, if it is no older than
/// ``longestGapNanoseconds``, else the oldest move within the window; with neither the speed is 0.
/// So a steady turn measures its own rate from its second detent on, and a turn slower than one
/// detent in ``longestGapNanoseconds`` measures 0.
struct HandSpeed: Sendable, Hashable {
    /// The window the speed is measured over (100 ms, moOde's poll).
    static let windowNanoseconds: Nanoseconds = 100_000_000
    /// A move older than this is no reference (250 ms: slower than 4 detents/s measures 0).
    static let longestGapNanoseconds: Nanoseconds = 250_000_000
    /// The moves kept (a ring).
    static let kept = 16

    /// The kept moves' times and the detents counted up to each, as a ring.
    private var times: [Nanoseconds] = []
    private var counts: [Double] = []
    private var newest = -1
    private var counted = 0.0

    /// Forgets every move (a new gesture, or the hand turned round).
    mutating func reset() {
        times.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        newest = -1
        counted = 0
    }

    /// Records a move of `detents` (its size) at `time`, and returns the speed with it.
    mutating func record(_ detents: Double, at time: Nanoseconds) -> Double {
        counted += abs(detents)
        if times.count < Self.kept {
            if times.isEmpty { times.reserveCapacity(Self.kept); counts.reserveCapacity(Self.kept) }
            times.append(time)
            counts.append(counted)
            newest = times.count - 1
        } else {
            newest = (newest + 1) % Self.kept
            times[newest] = time
            counts[newest] = counted
        }
        var reference: Int?
        var index = newest
        for _ in 1..<times.count {
            index = (index + times.count - 1) % times.count
            let age = time - times[index]
            if age >= Self.windowNanoseconds {
                if age <= Self.longestGapNanoseconds { reference = index }
                break
            }
            reference = index
        }
        guard let reference, time > times[reference] else { return 0 }
        return (counted - counts[reference]) / (Double(time - times[reference]) / 1e9)
    }
}
