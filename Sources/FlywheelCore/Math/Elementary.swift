/// `exp`, `log`, `sin`, `cos` and `atan2` written out in Swift, because the core uses neither
/// Glibc nor Foundation.
///
/// Both are accurate to a few units in the last place over the ranges the mechanics use, and,
/// unlike a platform's libm, give bit-identical results on every platform, which keeps seeded
/// simulations reproducible everywhere.
public enum Elementary {
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    static let ln2 = 0.693147180559945309417232121458176568

    /// e^x. Underflows to 0 below −745 and overflows to +∞ above 709.8.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.78 { return .infinity }
        if x < -745.2 { return 0 }
        // x = k·ln2 + r with |r| <= ln2/2; e^x = 2^k · e^r.
        let k = (x / ln2).rounded(.toNearestOrEven)
        let r = (x - k * ln2Hi) - k * ln2Lo
        // e^r by its Taylor series (|r| <= 0.347: 18 terms leave an error far below an ulp).
        var term = 1.0
        var sum = 1.0
        for n in 1...18 {
            term *= r / Double(n)
            sum += term
        }
        return scale(sum, byPowerOfTwo: Int(k))
    }

    /// The natural logarithm of a positive number (−∞ at 0, NaN below).
    public static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        // x = m·2^e with m in [√½, √2); log x = e·ln2 + log(1 + f), f = m − 1. With s = f/(2 + f),
        // log(1 + f) = 2·atanh(s) = 2s + s·R(s²), and R(z) = (2/3)z + (2/5)z² + … is a polynomial of
        // degree 7 whose coefficients are fitted for |s| ≤ 0.1716 (the classic one of fdlibm's
        // log, within 2⁻⁵⁸·⁴⁵ of R there): sixteen multiplications and additions, no series.
        // Written as f − (f²/2 − s·(f²/2 + R)), so the large part, f, is added last.
        var (e, m) = binade(x)  // m in [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let f = m - 1
        let s = f / (2 + f)
        let z = s * s, w = z * z
        let even = w * (logCoefficients.1 + w * (logCoefficients.3 + w * logCoefficients.5))
        let odd = z * (logCoefficients.0 + w * (logCoefficients.2 + w * (logCoefficients.4 + w * logCoefficients.6)))
        let r = odd + even
        let halfSquare = 0.5 * f * f
        let k = Double(e)
        return k * ln2Hi - ((halfSquare - (s * (halfSquare + r) + k * ln2Lo)) - f)
    }

    /// R(z)'s coefficients, of z¹ to z⁷ (fdlibm's Lg1 … Lg7).
    static let logCoefficients = (
        6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
        1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01
    )

    /// `x.exponent` and `x.significand` of a positive finite `x`: a normal number's read from its
    /// bits (the properties are calls, for the sake of subnormals, which still take them).
    @inline(__always)
    static func binade(_ x: Double) -> (exponent: Int, significand: Double) {
        guard x.isNormal else { return (Int(x.exponent), x.significand) }
        return (Int(x.exponentBitPattern) - 1023, Double(sign: .plus, exponentBitPattern: 1023, significandBitPattern: x.significandBitPattern))
    }

    /// value × 2^k, through at most a few exact multiplications (subnormals handled).
    package static func scale(_ value: Double, byPowerOfTwo k: Int) -> Double {
        var result = value
        var remaining = k
        while remaining > 1000 {
            result *= Double(sign: .plus, exponent: 1000, significand: 1)
            remaining -= 1000
        }
        while remaining < -1000 {
            result *= Double(sign: .plus, exponent: -1000, significand: 1)
            remaining += 1000
        }
        return result * Double(sign: .plus, exponent: remaining, significand: 1)
    }

    static let piOver2Hi = 1.57079632673412561417e+00
    static let piOver2Lo = 6.07710050650619224932e-11
    static let twoOverPi = 0.636619772367581343075535053490057448

    /// Reduces x to r in [−π/4, π/4] and the quadrant q with x = q·π/2 + r (accurate for |x| < 1e8).
    static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        let k = (x * twoOverPi).rounded(.toNearestOrEven)
        let r = (x - k * piOver2Hi) - k * piOver2Lo
        return (r, Int(k))
    }

    static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = r, sum = r
        var n = 1.0
        while n < 23 {
            term *= -r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0, sum = 1.0
        var n = 0.0
        while n < 22 {
            term *= -r2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// sin x (arguments beyond ±1e8 radians lose accuracy; Flywheel's stay far below).
    package static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        switch q & 3 {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// cos x.
    package static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        switch q & 3 {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// atan x for |x| ≤ 1 by halving the angle until the series converges quickly.
    static func atanSmall(_ x: Double) -> Double {
        // atan x = 2·atan(x / (1 + √(1 + x²))), twice, leaves |x| ≤ tan(π/16) ≈ 0.199.
        var y = x
        for _ in 0..<2 { y = y / (1 + (1 + y * y).squareRoot()) }
        let y2 = y * y
        var term = y, sum = y
        var n = 1.0
        while n < 45 {
            term *= -y2
            sum += term / (n + 2)
            n += 2
        }
        return 4 * sum
    }

    /// atan2(y, x): the angle of the point (x, y), in (−π, π].
    package static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        if x == 0 && y == 0 { return x.sign == .minus ? (y.sign == .minus ? -.pi : .pi) : y }
        let ax = abs(x), ay = abs(y)
        var angle = ay <= ax ? atanSmall(ay / ax) : .pi / 2 - atanSmall(ax / ay)
        if x < 0 { angle = .pi - angle }
        return y.sign == .minus ? -angle : angle
    }
}
