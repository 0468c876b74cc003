import Glibc
import Testing
@testable import FlywheelCore

/// The core's own elementary functions against the C library's (available to tests, not to the core).
@Suite("Elementary functions")
struct ElementaryTests {
    static func ulps(_ a: Double, _ b: Double) -> Double {
        if a == b { return 0 }
        return abs(a - b) / max(b.ulp, Double.leastNormalMagnitude)
    }

    static func samples(_ range: ClosedRange<Double>, count: Int = 20_000) -> [Double] {
        var state: UInt64 = 0x9E3779B97F4A7C15
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let unit = Double(state >> 11) / Double(1 << 53)
            return range.lowerBound + unit * (range.upperBound - range.lowerBound)
        }
    }

    @Test("exp and log within a few ulps of libm")
    func expLog() {
        var worstExp = 0.0, worstLog = 0.0
        for x in Self.samples(-700...700) { worstExp = max(worstExp, Self.ulps(Elementary.exp(x), Glibc.exp(x))) }
        for x in Self.samples(1e-300...1e300) + Self.samples(0.01...100) {
            worstLog = max(worstLog, Self.ulps(Elementary.log(x), Glibc.log(x)))
        }
        #expect(worstExp <= 4, "exp worst \(worstExp) ulps")
        #expect(worstLog <= 1, "log worst \(worstLog) ulps")  // (the polynomial: one ulp at worst)
        #expect(Elementary.exp(0) == 1 && Elementary.log(1) == 0)
        #expect(Elementary.exp(-800) == 0 && Elementary.exp(800) == .infinity && Elementary.log(0) == -.infinity)
    }

    @Test("log's binade, read from the bits, is the exponent and significand the properties give (normals, subnormals, edges)")
    func binade() {
        var values = Self.samples(1e-300...1e300) + Self.samples(0.01...100)
        values += [
            .leastNonzeroMagnitude, .leastNormalMagnitude, Double.leastNormalMagnitude.nextDown, Double.leastNormalMagnitude.nextUp,
            .greatestFiniteMagnitude, 1, Double(1).nextDown, Double(1).nextUp, 2, 0.5, 1.4142135623730951, Double.leastNormalMagnitude / 3, Double.leastNonzeroMagnitude * 7,
        ]
        for x in values {
            let (exponent, significand) = Elementary.binade(x)
            #expect(exponent == Int(x.exponent) && significand.bitPattern == x.significand.bitPattern, "\(x)")
        }
    }

    @Test("sin and cos within 1e-15 of libm over ±1000 rad")
    func sinCos() {
        var worst = 0.0
        for x in Self.samples(-1000...1000) {
            worst = max(worst, abs(Elementary.sin(x) - Glibc.sin(x)), abs(Elementary.cos(x) - Glibc.cos(x)))
        }
        #expect(worst < 1e-15, "worst absolute error \(worst)")
    }

    @Test("atan2 within 1e-15 of libm in every quadrant, zeros and axes included")
    func atan2() {
        var worst = 0.0
        let xs = Self.samples(-50...50, count: 4000), ys = Self.samples(-50...50, count: 4000).reversed()
        for (x, y) in zip(xs, ys) { worst = max(worst, abs(Elementary.atan2(y, x) - Glibc.atan2(y, x))) }
        #expect(worst < 1e-15, "worst absolute error \(worst)")
        for (y, x) in [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (-0.0, -1.0), (1e-300, 1.0), (1.0, 1e-300)] {
            #expect(abs(Elementary.atan2(y, x) - Glibc.atan2(y, x)) < 1e-15, "atan2(\(y), \(x))")
        }
    }
}
