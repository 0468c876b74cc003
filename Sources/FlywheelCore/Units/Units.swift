/// Distinct unit types, so a raw count is never mistaken for a detent or an angle.
///
/// Quadrature positions are counted in *quarter steps* (one level change of A or B);
/// a *detent* is the mechanical click, 1, 2 or 4 quarter steps long; physics works
/// in detents as a `Double`; touch rings and the tempo dial's geometry use radians.

/// A signed number of quadrature quarter steps (one valid A or B level change each).
public struct QuarterSteps: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The signed count.
    public var count: Int
    /// Creates a count of quarter steps.
    public init(_ count: Int) { self.count = count }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.count < rhs.count }
    public var description: String { "\(count) quarter steps" }
}

/// A signed whole number of detents (mechanical clicks).
public struct DetentCount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The signed count.
    public var count: Int
    /// Creates a count of detents.
    public init(_ count: Int) { self.count = count }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.count < rhs.count }
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
}

/// A point in time or a duration in nanoseconds, the unit of kernel timestamps.
public typealias Nanoseconds = Int64

extension Int64 {
    /// Seconds as a `Double`, for output and physics.
    @inlinable public var nanosecondsAsSeconds: Double { Double(self) / 1e9 }
}
