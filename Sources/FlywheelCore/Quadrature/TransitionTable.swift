/// The 16-entry quadrature transition table, indexed by `previous.code << 2 | next.code`.
///
/// Each entry is the quarter-step move of that transition: `0` (no change), `+1` or `-1`
/// (one line changed), or ``invalid`` (both lines changed in one sample: the direction
/// cannot be known, so it is counted as invalid and never guessed).
package enum TransitionTable {
    /// The marker for a double transition in ``moves``.
    package static let invalid: Int8 = 2

    /// Quarter-step move for each `previous << 2 | next`.
    package static let moves: [Int8] = {
        var table = [Int8](repeating: 0, count: 16)
        for previous in 0..<4 {
            for next in 0..<4 {
                let from = QuadratureLevels(code: UInt8(previous)).phase
                let to = QuadratureLevels(code: UInt8(next)).phase
                let move: Int8
                switch (to - from + 4) % 4 {
                case 0: move = 0
                case 1: move = 1
                case 3: move = -1
                default: move = invalid
                }
                table[previous << 2 | next] = move
            }
        }
        return table
    }()

    /// Two transitions in one lookup, indexed by `previous << 4 | first << 2 | second`: the
    /// net move plus 2 in the low four bits and the number of valid steps above them, or −1
    /// when either transition is invalid.
    package static let pairTable: [Int8] = {
        var table = [Int8](repeating: 0, count: 64)
        for previous in 0..<4 {
            for first in 0..<4 {
                for second in 0..<4 {
                    let a = moves[previous << 2 | first], b = moves[first << 2 | second]
                    let entry: Int8
                    if a == invalid || b == invalid {
                        entry = -1
                    } else {
                        let valid = Int8(a != 0 ? 1 : 0) + Int8(b != 0 ? 1 : 0)
                        entry = valid << 4 | (a + b + 2)
                    }
                    table[previous << 4 | first << 2 | second] = entry
                }
            }
        }
        return table
    }()

    /// Bit `previous << 2 | next` set where the transition is one step forward.
    package static let forwardMask: UInt32 = mask(1)
    /// Bit `previous << 2 | next` set where the transition is one step backward.
    package static let backwardMask: UInt32 = mask(-1)
    /// Bit `previous << 2 | next` set where both lines changed.
    package static let invalidMask: UInt32 = mask(invalid)

    static func mask(_ move: Int8) -> UInt32 {
        var bits: UInt32 = 0
        for index in 0..<16 where moves[index] == move { bits |= 1 << index }
        return bits
    }

    /// The transition between two level pairs.
    @inlinable package static func move(from previous: QuadratureLevels, to next: QuadratureLevels) -> Transition {
        switch moves[Int(previous.code) << 2 | Int(next.code)] {
        case 0: return .none
        case 1: return .forward
        case -1: return .backward
        default: return .invalid
        }
    }
}

/// One transition of the quadrature state.
package enum Transition: Sendable, Hashable {
    /// No level changed.
    case none
    /// One quarter step in the positive direction (A leads B).
    case forward
    /// One quarter step in the negative direction (B leads A).
    case backward
    /// Both lines changed at once: a step of unknown direction.
    case invalid
}
