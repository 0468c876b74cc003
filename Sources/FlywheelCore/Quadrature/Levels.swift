/// Which of the two quadrature lines an edge is on.
public enum QuadratureLine: String, Sendable, Hashable, CaseIterable {
    /// Channel A (leads B when turning in the positive direction).
    case a = "A"
    /// Channel B.
    case b = "B"
}

/// The levels of the A and B lines at one instant, packed as `A<<1 | B`.
///
/// Phase order in the positive (A-leads-B) direction is 00 → 10 → 11 → 01 → 00.
public struct QuadratureLevels: Hashable, Sendable, CustomStringConvertible {
    /// `A<<1 | B`, in 0...3.
    public let code: UInt8

    /// Creates levels from the two line levels.
    @inlinable public init(a: Bool, b: Bool) {
        code = (a ? 2 : 0) | (b ? 1 : 0)
    }

    /// Creates levels from a code `A<<1 | B`; only the low two bits are used.
    @inlinable public init(code: UInt8) { self.code = code & 3 }

    /// Level of line A.
    @inlinable public var a: Bool { code & 2 != 0 }
    /// Level of line B.
    @inlinable public var b: Bool { code & 1 != 0 }

    /// The level of one line.
    @inlinable public func level(of line: QuadratureLine) -> Bool { line == .a ? a : b }

    /// These levels with one line set to `level`.
    @inlinable public func setting(_ line: QuadratureLine, to level: Bool) -> QuadratureLevels {
        switch line {
        case .a: return QuadratureLevels(a: level, b: b)
        case .b: return QuadratureLevels(a: a, b: level)
        }
    }

    /// Position in the Gray cycle, 0...3, increasing in the positive direction (00=0, 10=1, 11=2, 01=3).
    @inlinable public var phase: Int { Int(QuadratureLevels.phaseOfCode[Int(code)]) }

    /// The levels at a phase of the Gray cycle (taken modulo 4).
    @inlinable public static func atPhase(_ phase: Int) -> QuadratureLevels {
        QuadratureLevels(code: codeOfPhase[((phase % 4) + 4) % 4])
    }

    @usableFromInline static let phaseOfCode: [UInt8] = [0, 3, 1, 2]
    @usableFromInline static let codeOfPhase: [UInt8] = [0b00, 0b10, 0b11, 0b01]

    /// Two characters, A then B, such as `"11"`.
    public var description: String { "\(a ? 1 : 0)\(b ? 1 : 0)" }
}

/// One level change on one line, with its timestamp.
public struct QuadratureEdge: Hashable, Sendable {
    /// When the change happened, in nanoseconds on the source's clock.
    public var timeNanoseconds: Nanoseconds
    /// The line that changed.
    public var line: QuadratureLine
    /// Its new level.
    public var level: Bool

    /// Creates an edge.
    public init(timeNanoseconds: Nanoseconds, line: QuadratureLine, level: Bool) {
        self.timeNanoseconds = timeNanoseconds
        self.line = line
        self.level = level
    }
}

/// The A/B levels after every change at one timestamp. Changes that share a timestamp
/// were simultaneous: if both lines changed, the transition is invalid.
public struct QuadratureSample: Hashable, Sendable {
    /// When, in nanoseconds.
    public var timeNanoseconds: Nanoseconds
    /// Levels after the changes at this time.
    public var levels: QuadratureLevels

    /// Creates a sample.
    public init(timeNanoseconds: Nanoseconds, levels: QuadratureLevels) {
        self.timeNanoseconds = timeNanoseconds
        self.levels = levels
    }
}

/// A recorded or simulated quadrature signal: the starting levels and every change.
public struct QuadratureTrace: Hashable, Sendable {
    /// Levels before the first edge.
    public var initial: QuadratureLevels
    /// Level changes in time order (non-decreasing timestamps).
    public var edges: [QuadratureEdge]

    /// Creates a trace.
    public init(initial: QuadratureLevels, edges: [QuadratureEdge]) {
        self.initial = initial
        self.edges = edges
    }

    /// The trace as samples: edges that share a timestamp are merged into one sample,
    /// and an edge that does not change its line's level is dropped.
    public var samples: [QuadratureSample] {
        var result: [QuadratureSample] = []
        result.reserveCapacity(edges.count)
        var levels = initial
        var index = 0
        while index < edges.count {
            let time = edges[index].timeNanoseconds
            var next = levels
            while index < edges.count, edges[index].timeNanoseconds == time {
                next = next.setting(edges[index].line, to: edges[index].level)
                index += 1
            }
            if next != levels {
                result.append(QuadratureSample(timeNanoseconds: time, levels: next))
                levels = next
            }
        }
        return result
    }
}
