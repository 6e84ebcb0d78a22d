import Foundation

/// Cross-seed statistics for `explore --out` and `compare --seeds`. Sums run in the
/// order given (seed order), so the same values give the same bits.
enum Statistics {
    static func mean(_ x: [Double]) -> Double {
        x.reduce(0, +) / Double(x.count)
    }

    /// Sample variance (divisor n − 1); 0 for fewer than two values.
    static func variance(_ x: [Double]) -> Double {
        guard x.count > 1 else { return 0 }
        let m = mean(x)
        return x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1)
    }

    /// The 95 % Student t interval of the mean: `mean ± t(0.975, n − 1) · s / √n`,
    /// with `s` the sample standard deviation. Nil for fewer than two values.
    static func confidenceInterval95(_ x: [Double]) -> (low: Double, high: Double)? {
        guard x.count > 1 else { return nil }
        let m = mean(x)
        let half = StudentT.quantile(0.975, degreesOfFreedom: Double(x.count - 1)) * (variance(x) / Double(x.count)).squareRoot()
        return (m - half, m + half)
    }

    /// Welch's t-test of "the mean of `new` is greater than the mean of `base`"
    /// (one-sided; unequal variances, Welch–Satterthwaite degrees of freedom).
    ///
    /// Returns the p-value: the probability of a difference at least this large if the
    /// means were equal. When both samples have no spread the difference is exact:
    /// p = 0 if `new` is larger, else 1. Nil when a side has fewer than two values.
    static func welchGreater(base: [Double], new: [Double]) -> (t: Double, degreesOfFreedom: Double, p: Double)? {
        guard base.count > 1, new.count > 1 else { return nil }
        let va = variance(base) / Double(base.count), vb = variance(new) / Double(new.count)
        let difference = mean(new) - mean(base)
        let se = (va + vb).squareRoot()
        guard se > 0 else { return (difference > 0 ? .infinity : difference < 0 ? -.infinity : 0, .infinity, difference > 0 ? 0 : 1) }
        let df = (va + vb) * (va + vb) / (va * va / Double(base.count - 1) + vb * vb / Double(new.count - 1))
        let t = difference / se
        return (t, df, StudentT.upperTail(t, degreesOfFreedom: df))
    }

    /// Cohen's d: `|mean(new) − mean(base)|` over the pooled standard deviation
    /// `√(((n₁ − 1)s₁² + (n₂ − 1)s₂²) / (n₁ + n₂ − 2))`. Infinite when the means differ and
    /// neither side has any spread, 0 when they are equal; nil when a side has fewer
    /// than two values.
    static func effectSize(base: [Double], new: [Double]) -> Double? {
        guard base.count > 1, new.count > 1 else { return nil }
        let difference = abs(mean(new) - mean(base))
        let pooled = ((Double(base.count - 1) * variance(base) + Double(new.count - 1) * variance(new)) / Double(base.count + new.count - 2)).squareRoot()
        guard pooled > 0 else { return difference > 0 ? .infinity : 0 }
        return difference / pooled
    }
}

/// Student's t distribution (Abramowitz & Stegun 26.7.1 via the regularized
/// incomplete beta function, evaluated by its continued fraction, as in Numerical
/// Recipes, 3rd ed., 6.4).
enum StudentT {
    /// P(T ≤ t) with `degreesOfFreedom` ν > 0: `1 − ½ I_{ν/(ν+t²)}(ν/2, ½)` for t ≥ 0.
    static func cdf(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        t.isNaN ? .nan : upperTail(-t, degreesOfFreedom: nu)
    }

    /// P(T > t), computed directly as `½ I_{ν/(ν+t²)}(ν/2, ½)` for t ≥ 0 rather than as
    /// `1 − cdf`, which cancels to exactly 0 once the tail is below about 1e-16; this stays
    /// accurate down to about 1e-300 (the incomplete beta's own floor).
    static func upperTail(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        if t.isNaN { return .nan }
        if t == .infinity { return 0 }
        if t == -.infinity { return 1 }
        let tail = 0.5 * incompleteBeta(x: nu / (nu + t * t), a: nu / 2, b: 0.5)
        return t >= 0 ? tail : 1 - tail
    }

    /// The `p`-quantile (0 < p < 1), by bisection on ``cdf(_:degreesOfFreedom:)`` to
    /// machine precision (deterministic: a fixed number of halvings).
    static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        if p == 0.5 { return 0 }
        if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: nu) }
        var low = 0.0, high = 1.0
        while cdf(high, degreesOfFreedom: nu) < p { high *= 2 }
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if cdf(mid, degreesOfFreedom: nu) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The regularized incomplete beta function I_x(a, b).
    static func incompleteBeta(x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a) + lgamma(b) - lgamma(a + b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logPowers - logBeta)
        // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the
        // symmetry I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x: x, a: a, b: b) / a }
        return 1 - front * continuedFraction(x: 1 - x, a: b, b: a) / b
    }

    /// Lentz's method for the continued fraction of I_x(a, b) (Numerical Recipes `betacf`).
    private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...10_000 {
            let m = Double(m), m2 = 2 * m
            var aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return h
    }
}
