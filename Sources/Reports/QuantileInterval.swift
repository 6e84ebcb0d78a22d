/// The distribution-free 95 % confidence interval of a quantile, from order statistics.
///
/// Rule (the textbook interval for a quantile from order statistics, e.g. Hahn & Meeker,
/// *Statistical Intervals*, ch. 5): with n samples, the number B of samples at or below the
/// population's q-quantile ξ is binomial(n, q), so for ranks l < u the sample order
/// statistics satisfy P(X₍ₗ₎ ≤ ξ ≤ X₍ᵤ₎) ≥ F(u − 1) − F(l − 1), F the binomial(n, q)
/// CDF. ``ranks(count:quantile:)`` takes equal tails:
/// - l = 1 + the largest k with F(k) ≤ 2.5 % (l = 0 when even F(0) > 2.5 %: no sample
///   bounds the quantile from below, the interval is open below);
/// - u = 1 + the smallest k with F(k) ≥ 97.5 % (u = n + 1 when only F(n) = 1 qualifies:
///   open above; for the p95 that is fewer than 72 samples, for the p99 fewer than 368).
/// So the coverage is at least 95 % whatever the distribution (more with ties).
///
/// F is exact (summed term by term from the mode outward) up to ``exactLimit`` samples;
/// above, the normal approximation with continuity correction,
/// F(k) ≈ Φ((k + ½ − nq) / √(nq(1 − q))), which at ten million samples is within one rank
/// of the exact ranks (QuantileIntervalTests checks both at the switch and beyond).
public enum QuantileInterval {
    /// The interval's confidence.
    public static let confidence = 0.95
    /// Largest sample count whose ranks come from the exact binomial.
    public static let exactLimit: UInt64 = 10_000_000
    /// The probability in each tail.
    static let tail = 0.025
    /// Φ⁻¹(0.975).
    static let z = 1.959_963_984_540_054

    /// The 1-based ranks (l, u) of the order statistics that bound the q-quantile of
    /// `count` samples with 95 % confidence: l = 0 means open below, u = count + 1 open
    /// above. `quantile` must be in (0, 1).
    /// - Complexity: O(min(n, σ)) with σ = √(nq(1 − q)) up to ``exactLimit``, else O(1).
    public static func ranks(count n: UInt64, quantile q: Double) -> (lower: UInt64, upper: UInt64) {
        precondition(q > 0 && q < 1, "a quantile strictly between 0 and 1")
        guard n > 0 else { return (0, 1) }
        return n <= exactLimit ? exactRanks(count: n, quantile: q) : normalRanks(count: n, quantile: q)
    }

    /// The ranks from the exact binomial CDF: the terms C(n,k) qᵏ (1 − q)ⁿ⁻ᵏ relative to the
    /// mode's, by their ratios (no factorial, no underflow near the mode), summed outward
    /// until a term falls below 10⁻²⁰ of the mode's (what lies beyond is below 10⁻¹⁶ of the
    /// total for n ≤ ``exactLimit``).
    static func exactRanks(count n: UInt64, quantile q: Double) -> (lower: UInt64, upper: UInt64) {
        let odds = q / (1 - q)
        let mode = Swift.min(n, UInt64((Double(n) + 1) * q))
        var below: [Double] = []  // terms for mode−1, mode−2, …
        var term = 1.0
        var k = mode
        while k > 0 {
            term *= Double(k) / (Double(n - k + 1) * odds)
            if term < 1e-20 { break }
            below.append(term)
            k -= 1
        }
        var above: [Double] = []  // terms for mode+1, mode+2, …
        term = 1
        k = mode
        while k < n {
            term *= Double(n - k) / Double(k + 1) * odds
            if term < 1e-20 { break }
            above.append(term)
            k += 1
        }
        let first = mode - UInt64(below.count)
        let terms = below.reversed() + [1.0] + above
        let total = terms.reduce(0, +)
        var cumulative = 0.0
        var lower = first  // F(first − 1) ≈ 0 ≤ 2.5 %: rank `first` bounds at least
        var upper = n + 1
        for (i, t) in terms.enumerated() {
            cumulative += t
            let f = cumulative / total
            let k = first + UInt64(i)
            if f <= tail { lower = k + 1 }
            if f >= 1 - tail { upper = k + 1; break }
        }
        return (lower, Swift.min(upper, n + 1))
    }

    /// The ranks from the normal approximation with continuity correction:
    /// l = ⌊nq − ½ − z σ⌋ + 1 and u = ⌈nq − ½ + z σ⌉ + 1, clamped to [0, n] and [1, n + 1].
    static func normalRanks(count n: UInt64, quantile q: Double) -> (lower: UInt64, upper: UInt64) {
        let mean = Double(n) * q, sigma = (Double(n) * q * (1 - q)).squareRoot()
        func clamped(_ x: Double, _ low: UInt64, _ high: UInt64) -> UInt64 {
            x <= Double(low) ? low : x >= Double(high) ? high : UInt64(x)
        }
        let lower = clamped((mean - 0.5 - z * sigma).rounded(.down) + 1, 0, n)
        let upper = clamped((mean - 0.5 + z * sigma).rounded(.up) + 1, 1, n == .max ? n : n + 1)
        return (lower, upper)
    }
}

extension LatencyHistogram {
    /// The 95 % confidence interval (µs, inclusive) of the q-quantile of the population the
    /// samples come from, nil when empty. Each rank of ``QuantileInterval/ranks(count:quantile:)``
    /// is located in its bucket: the lower rank's value is taken as its bucket's lower edge
    /// (at least `min`), the upper rank's as its bucket's upper edge (at most `max`), so the
    /// interval contains the order statistics' and is conservative: wider by at most a
    /// bucket (1/128 of the value) at each end. A side with no bounding rank is nil: open
    /// below (the quantile may be anything down to 0) or above (anything at all).
    /// - Complexity: O(b), b = the number of buckets between min and max.
    public func quantileInterval(_ q: Double) -> (low: Int64?, high: Int64?)? {
        guard count > 0 else { return nil }
        let (l, u) = QuantileInterval.ranks(count: count, quantile: q)
        return rankInterval(lower: l, upper: u)
    }

    /// The samples of ranks `l` and `u` (1-based), located in their buckets as
    /// ``quantileInterval(_:)`` says: the lower one's bucket's lower edge (at least
    /// `min`), the upper one's bucket's upper edge (at most `max`); nil for a rank 0
    /// (below) or above `count` (above).
    func rankInterval(lower l: UInt64, upper u: UInt64) -> (low: Int64?, high: Int64?) {
        guard count > 0 else { return (nil, nil) }
        var low: Int64?, high: Int64?
        var seen: UInt64 = 0
        for i in Self.bucketIndex(of: minValue)...Self.bucketIndex(of: maxValue) where counts[i] != 0 {
            let before = seen
            seen = Self.saturatingAdd(seen, counts[i])
            if l >= 1, before < l, seen >= l { low = Swift.max(Self.bucketBounds(i).lower, minValue) }
            if u <= count, before < u, seen >= u { high = Swift.min(Self.bucketBounds(i).upper, maxValue); break }
        }
        return (low, high)
    }

    /// The samples in the buckets up to `value`'s own (the samples at or below `value`,
    /// as far as the buckets tell).
    func samples(throughBucketOf value: Int64) -> UInt64 {
        guard count > 0 else { return 0 }
        let last = Self.bucketIndex(of: value)
        guard last >= Self.bucketIndex(of: minValue) else { return 0 }
        var seen: UInt64 = 0
        for i in Self.bucketIndex(of: minValue)...Swift.min(last, Self.bucketIndex(of: maxValue)) { seen = Self.saturatingAdd(seen, counts[i]) }
        return seen
    }
}
