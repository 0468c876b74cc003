/// Turns A/B level changes into exact quarter-step and detent counts.
///
/// The decoder counts every single-line change as ±1 quarter step through the
/// 16-entry ``TransitionTable``. A double change is counted in ``invalidTransitions``
/// and moves nothing. Detents fire only when the encoder *arrives at a rest state*
/// (see ``StepsPerDetent/restMask(alignedTo:)``) having moved a net ±N quarter steps
/// since the last rest, so contact bounce or a wiggle part-way into a step and back
/// produce no event and lose nothing: the quarter-step count stays exact throughout.
///
/// When an invalid transition happened since the last rest, the net move at the next
/// rest may not be a whole number of detents; the decoder then counts only the whole
/// detents (rounding toward zero) and reports the remainder in ``uncertainQuarterSteps``
/// instead of guessing.
public struct QuadratureDecoder: Sendable {
    /// Quarter steps per detent.
    public let stepsPerDetent: StepsPerDetent
    /// The rest state detents are aligned to.
    public let rest: QuadratureLevels

    /// Current levels.
    public private(set) var levels: QuadratureLevels
    /// Net valid quarter steps so far.
    public private(set) var quarterSteps: QuarterSteps = 0
    /// Net detents so far.
    public private(set) var detents: DetentCount = 0
    /// Single-line transitions seen.
    public private(set) var validTransitions: Int = 0
    /// Double transitions seen (direction unknown, not counted).
    public private(set) var invalidTransitions: Int = 0
    /// Quarter steps that could not be attributed to a detent because an invalid transition
    /// came before them (sum of absolute remainders).
    package private(set) var uncertainQuarterSteps: QuarterSteps = 0

    let restMask: UInt8
    var anchor: Int = 0
    var uncertain = false
    var anchored = true

    /// Creates a decoder.
    /// - Parameters:
    ///   - stepsPerDetent: quarter steps per detent.
    ///   - initial: the levels before the first change.
    ///   - rest: the rest state detents align to; by default the initial levels when they are
    ///     a plausible rest (00 or 11 for two and four steps), else 11.
    public init(stepsPerDetent: StepsPerDetent, initial: QuadratureLevels, rest: QuadratureLevels? = nil) {
        self.stepsPerDetent = stepsPerDetent
        self.levels = initial
        let chosen: QuadratureLevels
        if let rest {
            chosen = rest
        } else if stepsPerDetent == .one || initial.code == 0 || initial.code == 3 {
            chosen = initial
        } else {
            chosen = QuadratureLevels(code: 3)
        }
        self.rest = chosen
        self.restMask = stepsPerDetent.restMask(alignedTo: chosen)
        // Starting between rests: the first rest reached sets the anchor without an event.
        self.anchored = restMask & (1 << initial.code) != 0
    }

    /// Feeds the levels after a change and returns the net detents that fired (usually 0 or ±1).
    @discardableResult
    public mutating func feed(_ next: QuadratureLevels) -> DetentCount {
        let move = TransitionTable.moves[Int(levels.code) << 2 | Int(next.code)]
        levels = next
        if move == 0 { return 0 }
        if move == TransitionTable.invalid {
            invalidTransitions += 1
            uncertain = true
        } else {
            validTransitions += 1
            quarterSteps.count &+= Int(move)
        }
        guard restMask & (1 << next.code) != 0 else { return 0 }
        return DetentCount(arriveAtRest())
    }

    /// The whole detents fired on arriving at a rest state (the counters stay plain `Int` inside).
    mutating func arriveAtRest() -> Int {
        guard anchored else {
            anchored = true
            anchor = quarterSteps.count
            uncertain = false
            return 0
        }
        let net = quarterSteps.count &- anchor
        if net == 0 { uncertain = false; return 0 }
        let n = stepsPerDetent.rawValue
        let whole = net / n  // rounds toward zero
        if uncertain {
            uncertainQuarterSteps.count += abs(net - whole * n)
            uncertain = false
        }
        anchor = quarterSteps.count
        detents.count &+= whole
        return whole
    }

    /// Decodes a whole trace from the decoder's current state, calling `onDetent` for every
    /// detent with its time, direction (+1 or −1) and the running detent position.
    public mutating func decode(
        _ samples: [QuadratureSample],
        onDetent: (_ timeNanoseconds: Nanoseconds, _ direction: Int, _ position: Int) -> Void = { _, _, _ in }
    ) {
        for sample in samples {
            let fired = feed(sample.levels).count
            if fired != 0 {
                let direction = fired > 0 ? 1 : -1
                var position = detents.count - fired
                for _ in 0..<abs(fired) {
                    position += direction
                    onDetent(sample.timeNanoseconds, direction, position)
                }
            }
        }
    }

    /// The branch-light inner loop of ``count(codes:)``: sums moves until the end or the first
    /// invalid transition (left unconsumed), two samples per table lookup.
    @inline(never)
    static func run(
        _ codes: UnsafeBufferPointer<UInt8>, from start: Int, previous: Int, moves: UnsafeBufferPointer<Int8>
    ) -> (index: Int, previous: Int, quarterSteps: Int, valid: Int, hitInvalid: Bool) {
        let pairs = TransitionTable.pairTable
        let base = codes.baseAddress!
        let end = codes.count
        var index = start
        var previous = previous
        var q = 0
        var valid = 0
        return pairs.withUnsafeBufferPointer { pairs in
            // Two samples at a time: entry (previous, first, second) packs move sum and valid count.
            while index &+ 1 < end {
                let first = Int(base[index] & 3)
                let second = Int(base[index &+ 1] & 3)
                let entry = Int(pairs[previous &<< 4 | first &<< 2 | second])
                if entry < 0 { break }  // an invalid transition among the two: finish one by one
                q &+= (entry & 0xF) &- 2
                valid &+= entry &>> 4
                previous = second
                index &+= 2
            }
            while index < end {
                let code = Int(base[index] & 3)
                let move = Int(moves[previous &<< 2 | code])
                if move == Int(TransitionTable.invalid) {
                    return (index, previous, q, valid, true)
                }
                q &+= move
                valid &+= move & 1
                previous = code
                index &+= 1
            }
            return (index, previous, q, valid, false)
        }
    }

    /// Counts a packed array of level codes (one byte per sample, `A<<1 | B`) as fast as
    /// possible, without reporting individual detents. Equivalent to calling ``feed(_:)``
    /// for each code.
    ///
    /// While no invalid transition is pending, detents telescope: each rest arrival adds
    /// `(q − anchor) / N` exactly and moves the anchor to `q`, so the total only needs the
    /// quarter-step count at the *last* rest arrival. The loop therefore keeps four integers
    /// and no branches but one for the rare invalid transition, which is handed to ``feed(_:)``
    /// until the next rest settles it.
    public mutating func count(codes: UnsafeBufferPointer<UInt8>) {
        TransitionTable.moves.withUnsafeBufferPointer { moves in
            count(codes: codes, moves: moves)
        }
    }

    private mutating func count(codes: UnsafeBufferPointer<UInt8>, moves: UnsafeBufferPointer<Int8>) {
        let restMask = UInt32(self.restMask)
        var index = 0
        let end = codes.count
        while index < end {
            // Slow path until the decoder is anchored and certain again.
            while index < end, !anchored || uncertain {
                feed(QuadratureLevels(code: codes[index]))
                index += 1
            }
            guard index < end else { return }
            let start = index
            let startLevels = Int(levels.code)
            let run = Self.run(codes, from: start, previous: startLevels, moves: moves)
            index = run.index
            let previous = run.previous
            let q = quarterSteps.count &+ run.quarterSteps
            let valid = validTransitions &+ run.valid
            let hitInvalid = run.hitInvalid
            // The quarter-step count at the last rest state visited: walk back from the end.
            var lastRest = anchor
            var suffix = 0
            var k = index - 1
            while k >= start {
                let code = Int(codes[k] & 3)
                if (restMask &>> UInt32(code)) & 1 != 0 {
                    lastRest = q &- suffix
                    break
                }
                let before = k > start ? Int(codes[k - 1] & 3) : startLevels
                suffix &+= Int(moves[before &<< 2 | code])
                k -= 1
            }
            // Settle the telescoped detents and hand the state back.
            detents.count &+= (lastRest &- anchor) / stepsPerDetent.rawValue
            anchor = lastRest
            quarterSteps.count = q
            validTransitions = valid
            levels = QuadratureLevels(code: UInt8(truncatingIfNeeded: previous))
            if hitInvalid {
                feed(QuadratureLevels(code: codes[index]))
                index += 1
            }
        }
    }
}
