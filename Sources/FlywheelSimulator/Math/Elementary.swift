/// `exp` and `log` written out in Swift, because the simulator uses neither Glibc nor Foundation.
///
/// Both are accurate to a few units in the last place over the ranges the mechanics use, and,
/// unlike a platform's libm, give bit-identical results on every platform, which keeps seeded
/// simulations reproducible everywhere.
enum Elementary {
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    static let ln2 = 0.693147180559945309417232121458176568

    /// e^x. Underflows to 0 below −745 and overflows to +∞ above 709.8.
    static func exp(_ x: Double) -> Double {
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
    static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        // x = m·2^e with m in [√½, √2); log x = e·ln2 + 2·atanh((m−1)/(m+1)).
        var e = Int(x.exponent)
        var m = x.significand  // in [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var power = s
        var sum = 0.0
        var n = 1.0
        while n < 60 {
            sum += power / n
            power *= s2
            n += 2
        }
        return Double(e) * ln2Hi + (Double(e) * ln2Lo + 2 * sum)
    }

    /// value × 2^k, through at most a few exact multiplications (subnormals handled).
    static func scale(_ value: Double, byPowerOfTwo k: Int) -> Double {
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
}
