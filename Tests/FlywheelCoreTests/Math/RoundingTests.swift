import Testing
@testable import FlywheelCore

/// The core's roundings to an integer give exactly what the standard library's do.
@Suite("Rounding to an integer")
struct RoundingTests {
    /// Halves, near-halves, near-integers and their negatives; large and tiny magnitudes around 2⁵²;
    /// and seeded values of every magnitude up to 2⁶⁰.
    static var values: [Double] {
        var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.0e-300, 4_503_599_627_370_496, -4_503_599_627_370_496]
        for whole in [0.0, 1, 2, 3, 7, 1_000_000, 4_503_599_627_370_495, 9_007_199_254_740_991] {
            for offset in [0.0, 0.5, 0.49999999999999994, 0.5000000000000001, 0.25, 0.75, 0.6, 0.4] {
                for value in [whole + offset, whole - offset] {
                    values += [value, value.nextUp, value.nextDown, -value, -value.nextUp, -value.nextDown]
                }
            }
        }
        var state: UInt64 = 0x1319_8A2E_0370_7344
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let magnitude = Double(state >> 11) / Double(1 << 53) * 60
            let value = Elementary.exp(magnitude * 0.6931471805599453) - 1
            values.append(state & 1 == 0 ? value : -value)
        }
        return values
    }

    @Test("nearest (half away from zero), ceiling and floor as Int(x.rounded(…)) has them")
    func matchesTheStandardLibrary() {
        for x in Self.values where abs(x) < 9.0e18 {
            #expect(Elementary.nearestInteger(x) == Int(x.rounded()), "\(x)")
            #expect(Elementary.ceilingInteger(x) == Int(x.rounded(.up)), "\(x)")
            #expect(Elementary.floorInteger(x) == Int(x.rounded(.down)), "\(x)")
        }
    }
}
