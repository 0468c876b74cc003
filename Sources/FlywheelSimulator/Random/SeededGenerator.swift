/// SplitMix64: a tiny 64-bit generator, used here to expand one seed into the state of
/// ``SeededGenerator`` (and usable on its own).
///
/// Same seed, same sequence, on every platform and every Swift version: the algorithm is
/// written out here rather than borrowed from the standard library.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    /// The current state.
    public private(set) var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The simulator's deterministic random number generator: xoshiro256** seeded through
/// ``SplitMix64``.
///
/// The same seed (and stream) gives bit-identical output everywhere. Streams let separate parts
/// of the simulation (hand motion, contact bounce, interrupt latency…) draw from independent
/// sequences, so changing how much one part draws does not shift the others.
public struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
    var s0: UInt64
    var s1: UInt64
    var s2: UInt64
    var s3: UInt64

    /// Creates a generator for `seed` and an optional independent `stream`.
    public init(seed: UInt64, stream: UInt64 = 0) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }  // the all-zero state is a fixed point
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    @inline(__always) func rotateLeft(_ x: UInt64, by k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

extension RandomNumberGenerator {
    /// A uniform `Double` in `0..<1` from the top 53 bits (platform-independent, unlike
    /// `Double.random(in:using:)`, whose algorithm may change between Swift releases).
    public mutating func unitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniform `Double` in `range` (the upper bound included only by rounding).
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unitDouble()
    }

    /// A uniform integer in `range`, by rejection sampling (no modulo bias).
    public mutating func uniform(_ range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if span == 0 { return Int64(bitPattern: next()) }  // the full 64-bit range
        let limit = UInt64.max - UInt64.max % span
        var value = next()
        while value >= limit { value = next() }
        return range.lowerBound &+ Int64(bitPattern: value % span)
    }

    /// A uniform integer in `range`.
    public mutating func uniform(_ range: ClosedRange<Int>) -> Int {
        Int(uniform(Int64(range.lowerBound)...Int64(range.upperBound)))
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unitDouble() < p }
}
