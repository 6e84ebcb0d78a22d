/// A log-linear, exactly mergeable histogram of non-negative `Int64` values
/// (microseconds), in the style of HdrHistogram.
///
/// Layout (fixed, so that any two histograms merge bucket by bucket):
/// - Values `0...255` each have their own bucket (exact).
/// - Every power-of-two range `[2ᵉ, 2ᵉ⁺¹)` with `e ≥ 7` is split into 128 equal
///   sub-buckets of width `2ᵉ⁻⁷`, so a bucket is never wider than 1/128 of its lower
///   bound. Reported values are bucket midpoints, within 1/256 (≈ 0.4 %) of every value
///   in the bucket: see ``relativeErrorBound``.
/// - ``bucketCount`` (7,296) buckets cover `0...Int64.max` in one flat `[UInt64]`
///   (57 KiB), allocated once by ``init()``: keep one histogram per metric (or per metric
///   and cohort), not one per device.
///
/// Rules:
/// - Negative values are recorded as 0.
/// - `count`, `min`, `max` are exact. The sum is kept exactly in 128 bits, so
///   ``mean`` is exact up to the final division.
/// - Counts and the sum saturate instead of overflowing or trapping. Saturating
///   addition of non-negative numbers is associative and commutative, so merging is
///   exact: merging any split of the samples (in any order) yields a histogram equal
///   (`==`) to recording them all in one.
/// - No allocation after `init()`: recording and merging only write to existing storage
///   (plus the usual copy-on-write copy if the storage is shared).
public struct LatencyHistogram: Sendable, Equatable {
    /// Linear sub-buckets per power of two.
    public static let subBucketCount = 128
    /// Number of buckets covering `0...Int64.max`.
    public static let bucketCount = 7_296
    /// Largest relative distance between a bucket's midpoint and any value in the bucket.
    public static let relativeErrorBound = 1.0 / 256

    @usableFromInline var counts: [UInt64]
    @usableFromInline var total: UInt64 = 0
    @usableFromInline var minValue: Int64 = .max
    @usableFromInline var maxValue: Int64 = .min
    @usableFromInline var sumHigh: UInt64 = 0
    @usableFromInline var sumLow: UInt64 = 0

    /// An empty histogram.
    /// - Complexity: O(``bucketCount``): one zeroed allocation.
    public init() {
        counts = [UInt64](repeating: 0, count: Self.bucketCount)
    }

    // MARK: Recording

    /// Records one sample.
    /// - Complexity: O(1): one bucket-index computation (a leading-zero count and two
    ///   shifts), branch-light (saturation and min/max are selects), no allocation.
    ///   About 4 ns in a release build.
    @inlinable public mutating func record(_ value: Int64) {
        let v = Swift.max(value, 0)
        let i = Self.bucketIndex(of: v)
        let (c, cOverflow) = counts[i].addingReportingOverflow(1)
        counts[i] = cOverflow ? .max : c
        let (n, nOverflow) = total.addingReportingOverflow(1)
        total = nOverflow ? .max : n
        minValue = Swift.min(minValue, v)
        maxValue = Swift.max(maxValue, v)
        addToSum(high: 0, low: UInt64(bitPattern: v))
    }

    /// Records `count` samples of the same value; a zero count changes nothing.
    /// - Complexity: O(1), no allocation.
    @inlinable public mutating func record(_ value: Int64, count samples: UInt64) {
        guard samples > 0 else { return }
        let v = Swift.max(value, 0)
        let i = Self.bucketIndex(of: v)
        counts[i] = Self.saturatingAdd(counts[i], samples)
        total = Self.saturatingAdd(total, samples)
        minValue = Swift.min(minValue, v)
        maxValue = Swift.max(maxValue, v)
        let product = UInt64(bitPattern: v).multipliedFullWidth(by: samples)
        addToSum(high: product.high, low: product.low)
    }

    /// Adds every sample of `other` to this histogram. Exact: see the type's rules.
    /// - Complexity: O(b), b = the number of buckets between `other`'s min and max
    ///   (at most ``bucketCount``); no allocation.
    public mutating func merge(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        let first = Self.bucketIndex(of: other.minValue)
        let last = Self.bucketIndex(of: other.maxValue)
        for i in first...last where other.counts[i] != 0 {
            counts[i] = Self.saturatingAdd(counts[i], other.counts[i])
        }
        total = Self.saturatingAdd(total, other.total)
        minValue = Swift.min(minValue, other.minValue)
        maxValue = Swift.max(maxValue, other.maxValue)
        addToSum(high: other.sumHigh, low: other.sumLow)
    }

    // MARK: Reading

    /// Number of samples recorded (saturating at `UInt64.max`).
    /// - Complexity: O(1).
    public var count: UInt64 { total }

    /// True when nothing was recorded.
    /// - Complexity: O(1).
    public var isEmpty: Bool { count == 0 }

    /// The smallest sample (exact), nil when empty.
    /// - Complexity: O(1).
    public var min: Int64? { count > 0 ? minValue : nil }

    /// The largest sample (exact), nil when empty.
    /// - Complexity: O(1).
    public var max: Int64? { count > 0 ? maxValue : nil }

    /// The sum of all samples: the exact 128-bit sum (saturating at 2¹²⁸ − 1) converted
    /// to `Double` (within an ulp or two); 0 when empty.
    /// - Complexity: O(1).
    public var sum: Double { Double(sumHigh) * 18_446_744_073_709_551_616.0 + Double(sumLow) }

    /// The arithmetic mean of the samples, nil when empty.
    /// - Complexity: O(1).
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// The value at percentile `p`, nil when empty or when `p` is NaN.
    ///
    /// `p` is clamped to `[0, 100]`. The sample of rank `ceil(p/100 · count)` (at least
    /// rank 1) is located, and its bucket's midpoint is returned, clamped into
    /// `[min, max]`: `percentile(100) == max` exactly, `percentile(0)` lies in the bucket
    /// of `min`, and a histogram whose samples share one bucket returns values in
    /// `[min, max]` (a single sample is returned exactly). As in HdrHistogram, `p` is
    /// nudged down by one ulp before ranking so that `p = 95` of 100 samples is rank 95,
    /// not 96 through rounding error.
    /// - Complexity: O(b), b = the number of buckets between min and max.
    public func percentile(_ p: Double) -> Int64? {
        guard count > 0, !p.isNaN else { return nil }
        if p >= 100 { return maxValue }
        let rank = Self.rank(p, of: count)
        var seen: UInt64 = 0
        for i in Self.bucketIndex(of: minValue)...Self.bucketIndex(of: maxValue) {
            seen = Self.saturatingAdd(seen, counts[i])
            if seen >= rank { return Self.midpoint(i, min: minValue, max: maxValue) }
        }
        return maxValue  // unreachable: the counts sum to `count`
    }

    /// The rank (1-based) of percentile `p` (below 100, not NaN) among `count` samples:
    /// the smallest whose share reaches `p` (nudged down by one ulp, so that a share
    /// exactly at `p` counts).
    static func rank(_ p: Double, of count: UInt64) -> UInt64 {
        let q = Swift.min(Swift.max(p.nextDown, 0), 100)
        let rankEstimate = (q * Double(count) / 100).rounded(.up)
        return rankEstimate >= Double(count) ? count : Swift.max(1, UInt64(rankEstimate))
    }

    /// What a percentile that falls in bucket `index` reads: the bucket's midpoint,
    /// clamped to the samples' extremes.
    static func midpoint(_ index: Int, min minValue: Int64, max maxValue: Int64) -> Int64 {
        let bounds = bucketBounds(index)
        let midpoint = bounds.lower + (bounds.upper - bounds.lower) / 2
        return Swift.min(Swift.max(midpoint, minValue), maxValue)
    }

    /// The non-empty buckets in ascending order, with inclusive bounds (for charts).
    /// - Complexity: O(b), b = the number of buckets between min and max; allocates the
    ///   result.
    public func buckets() -> [(lowerBound: Int64, upperBound: Int64, count: UInt64)] {
        guard count > 0 else { return [] }
        var result: [(lowerBound: Int64, upperBound: Int64, count: UInt64)] = []
        for i in Self.bucketIndex(of: minValue)...Self.bucketIndex(of: maxValue) where counts[i] != 0 {
            let bounds = Self.bucketBounds(i)
            result.append((bounds.lower, bounds.upper, counts[i]))
        }
        return result
    }

    // MARK: Layout

    /// The bucket of a non-negative value: `s · 128 + (v >> s)` where
    /// `s = max(0, ⌊log₂ v⌋ − 7)`; values below 256 map to themselves.
    /// - Complexity: O(1), no branch.
    @inlinable static func bucketIndex(of value: Int64) -> Int {
        let v = UInt64(bitPattern: value)
        let shift = 56 &- (v | 255).leadingZeroBitCount
        return (shift &<< 7) &+ Int(truncatingIfNeeded: v &>> UInt64(shift))
    }

    /// The inclusive bounds of bucket `index` (in `0..<bucketCount`).
    /// - Complexity: O(1).
    static func bucketBounds(_ index: Int) -> (lower: Int64, upper: Int64) {
        guard index >= 256 else { return (Int64(index), Int64(index)) }
        let shift = (index >> 7) - 1
        let subBucket = UInt64(index - (shift << 7))  // in 128..<256
        let lower = subBucket << UInt64(shift)
        let upper = ((subBucket + 1) << UInt64(shift)) - 1  // ≤ 2⁶³ − 1
        return (Int64(bitPattern: lower), Int64(bitPattern: upper))
    }

    // MARK: Saturating arithmetic

    @inlinable static func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// Adds a 128-bit addend to the sum, saturating at 2¹²⁸ − 1.
    @inlinable mutating func addToSum(high: UInt64, low: UInt64) {
        Self.saturatingAdd128(&sumHigh, &sumLow, high: high, low: low)
    }

    /// Adds `(high, low)` to the 128-bit number `(sumHigh, sumLow)`, saturating at 2¹²⁸ − 1.
    @inlinable static func saturatingAdd128(_ sumHigh: inout UInt64, _ sumLow: inout UInt64, high: UInt64, low: UInt64) {
        let (lo, carry) = sumLow.addingReportingOverflow(low)
        let (hi1, overflow1) = sumHigh.addingReportingOverflow(high)
        let (hi, overflow2) = hi1.addingReportingOverflow(carry ? 1 : 0)
        let saturated = overflow1 || overflow2
        sumLow = saturated ? .max : lo
        sumHigh = saturated ? .max : hi
    }

    /// A histogram from its parts, as ``LatencyTimeline`` keeps a closed bucket of time:
    /// the indices of its non-empty buckets with their counts, and the exact count,
    /// extremes and sum.
    init(indices: [Int32], counts sparse: [UInt64], total: UInt64, min: Int64, max: Int64, sumHigh: UInt64, sumLow: UInt64) {
        self.init()
        for (index, count) in zip(indices, sparse) { counts[Int(index)] = count }
        self.total = total
        minValue = min
        maxValue = max
        self.sumHigh = sumHigh
        self.sumLow = sumLow
    }
}
