/// Distinct unit types, so a raw count is never mistaken for a detent or an angle.
///
/// Quadrature positions are counted in *quarter steps* (one level change of A or B);
/// a *detent* is the mechanical click, 1, 2 or 4 quarter steps long; physics works
/// in detents as a `Double`; a touch ring's contact angle is in radians.
///
/// The types are used at the boundaries where a mix-up is real; inner loops and physics keep
/// plain `Int` and `Double`, and output takes the raw ``QuarterSteps/count``, ``DetentCount/count``
/// or ``Radians/value``:
/// - ``QuarterSteps``: ``QuadratureDecoder/quarterSteps`` and
///   ``QuadratureDecoder/uncertainQuarterSteps``.
/// - ``DetentCount``: ``QuadratureDecoder/detents``, the detents ``QuadratureDecoder/feed(_:)``
///   fired, and ``GPIOEdgeInterpreter/detents``.
/// - ``Radians``: a ring region's contact angle in ``TouchKnob`` and its change from one frame to
///   the next (``Radians/change(from:)``, unwrapped across ±π), turned into detents in one place
///   through ``Radians/turns``.

/// A signed number of quadrature quarter steps (one valid A or B level change each).
public struct QuarterSteps: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The signed count.
    public var count: Int
    /// Creates a count of quarter steps.
    public init(_ count: Int) { self.count = count }
    /// A literal count of quarter steps.
    public init(integerLiteral count: Int) { self.count = count }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.count < rhs.count }
    public var description: String { "\(count) quarter steps" }
}

/// A signed whole number of detents (mechanical clicks).
public struct DetentCount: Hashable, Comparable, Sendable, CustomStringConvertible, AdditiveArithmetic, ExpressibleByIntegerLiteral {
    /// The signed count.
    public var count: Int
    /// Creates a count of detents.
    public init(_ count: Int) { self.count = count }
    /// A literal count of detents.
    public init(integerLiteral count: Int) { self.count = count }
    public static let zero = DetentCount(0)
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.count < rhs.count }
    public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.count + rhs.count) }
    public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.count - rhs.count) }
    public var description: String { "\(count) detents" }
}

/// An angle in radians.
public struct Radians: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The angle.
    public var value: Double
    /// Creates an angle in radians.
    public init(_ value: Double) { self.value = value }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
    public var description: String { "\(value) rad" }

    /// The change from `previous` to this angle the short way round, in [−π, π]: for two angles
    /// in (−π, π] (as atan2 gives them), a step across ±π is a small one, not nearly a full turn back.
    package func change(from previous: Radians) -> Radians {
        var delta = value - previous.value
        if delta > .pi { delta -= 2 * .pi }
        if delta < -.pi { delta += 2 * .pi }
        return Radians(delta)
    }

    /// The angle as a fraction of a full turn (2π).
    package var turns: Double { value / (2 * .pi) }
}

/// A point in time or a duration in nanoseconds, the unit of kernel timestamps.
public typealias Nanoseconds = Int64

extension Int64 {
    /// Seconds as a `Double`, for output and physics.
    @inlinable package var nanosecondsAsSeconds: Double { Double(self) / 1e9 }
}
