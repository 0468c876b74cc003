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
    public private(set) var quarterSteps: Int = 0
    /// Net detents so far.
    public private(set) var detents: Int = 0
    /// Single-line transitions seen.
    public private(set) var validTransitions: Int = 0
    /// Double transitions seen (direction unknown, not counted).
    public private(set) var invalidTransitions: Int = 0
    /// Quarter steps that could not be attributed to a detent because an invalid transition
    /// came before them (sum of absolute remainders).
    public private(set) var uncertainQuarterSteps: Int = 0

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
    public mutating func feed(_ next: QuadratureLevels) -> Int {
        let move = TransitionTable.moves[Int(levels.code) << 2 | Int(next.code)]
        levels = next
        if move == 0 { return 0 }
        if move == TransitionTable.invalid {
            invalidTransitions += 1
            uncertain = true
        } else {
            validTransitions += 1
            quarterSteps &+= Int(move)
        }
        guard restMask & (1 << next.code) != 0 else { return 0 }
        return arriveAtRest()
    }

    mutating func arriveAtRest() -> Int {
        guard anchored else {
            anchored = true
            anchor = quarterSteps
            uncertain = false
            return 0
        }
        let net = quarterSteps &- anchor
        if net == 0 { uncertain = false; return 0 }
        let n = stepsPerDetent.rawValue
        let whole = net / n  // rounds toward zero
        if uncertain {
            uncertainQuarterSteps += abs(net - whole * n)
            uncertain = false
        }
        anchor = quarterSteps
        detents &+= whole
        return whole
    }

    /// Decodes a whole trace from the decoder's current state, calling `onDetent` for every
    /// detent with its time, direction (+1 or −1) and the running detent position.
    public mutating func decode(
        _ samples: [QuadratureSample],
        onDetent: (_ timeNanoseconds: Nanoseconds, _ direction: Int, _ position: Int) -> Void = { _, _, _ in }
    ) {
        for sample in samples {
            let fired = feed(sample.levels)
            if fired != 0 {
                let direction = fired > 0 ? 1 : -1
                var position = detents - fired
                for _ in 0..<abs(fired) {
                    position += direction
                    onDetent(sample.timeNanoseconds, direction, position)
                }
            }
        }
    }

    /// Counts a packed array of level codes (one byte per sample, `A<<1 | B`) as fast as
    /// possible, without reporting individual detents. Equivalent to calling ``feed(_:)``
    /// for each code.
    public mutating func count(codes: UnsafeBufferPointer<UInt8>) {
        for code in codes {
            feed(QuadratureLevels(code: code))
        }
    }
}
