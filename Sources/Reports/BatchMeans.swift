/// The 95 % confidence interval of a percentile or a mean of samples that depend on each
/// other in time (the API's waits: a busy spell makes hundreds of consecutive requests
/// wait), by non-overlapping batch means over simulated time.
///
/// Rules (docs/report.md, "Intervals"; Law and Kelton, *Simulation Modeling and
/// Analysis*, the output-analysis chapter):
/// - The run records the samples in ``baseBatches`` equal spans of simulated time
///   (`batches` in report.json, one histogram per span, merged span by span across shards).
/// - **Warm-up** (MSER): a queue that starts empty is not yet in its steady state. With Zⱼ
///   the mean of span j, the first d spans are cut, d ≤ half of them, chosen to minimise
///   Σⱼ₌d+1..K (Zⱼ − Z̄_d)² / (K − d)² (White's MSER on the spans' means instead of on
///   batches of 5 samples), among the cuts whose every span lies below the mean Z̄_d of
///   the spans kept: an empty start's transient lies below the steady state, so a span
///   above it is a busy period, not warm-up, and cutting it would bias the estimate low.
/// - **Batches**: the spans left are grouped into b batches of m consecutive spans (the
///   spans that do not fill a batch are cut from the start, with the warm-up). Each
///   batch's figure yᵢ is the statistic of its own samples: its percentile (a batch
///   quantile) or its mean. A batch must hold at least 2 / (1 − q) samples for a
///   q-quantile (10 for a mean); an empty or smaller batch widens the batches.
/// - **Independence** (as Law and Carson's LBATCH): the batches' lag-1 autocorrelation r₁
///   must be at most 1.645 / √b (no evidence of positive correlation at 5 %). It is
///   tested first on many short batches (m = 1, 2, 4, … while ``intervalBatches`` or
///   more remain, where the test has power); the interval then rests on about
///   ``intervalBatches`` batches at least as long as the first that passed, which must
///   pass too; when no test with that many batches passes, on the first of fewer, longer
///   batches, down to ``minimumBatches``, that does.
/// - At least ``minimumBatches`` batches must remain: fewer, because r₁ never passed,
///   is `correlated`; because the samples are too few, `insufficient`. Neither gives an
///   interval, and a verdict resting on it is inconclusive.
/// - The interval of a **mean**: centre the mean of all samples after the warm-up,
///   half-width t₀.₉₇₅,b−1 × s / √b, s the batches' standard deviation.
/// - The interval of a **q-quantile**, centre ξ̂ the quantile of all samples after the
///   warm-up: the share of samples at or below ξ̂ is a mean (of 0/1 indicators), so
///   batch means give its half-width h = t₀.₉₇₅,b−1 × se, se² = Σᵢ (aᵢ − p̂ cᵢ)² /
///   (b (b − 1) c̄²) (aᵢ of batch i's cᵢ samples at or below ξ̂, p̂ = Σaᵢ / Σcᵢ: the ratio
///   estimator, batches of time holding unequal counts). Inverted through all the samples,
///   the interval runs from the sample of rank ⌈(q − h) n⌉ to that of ⌈(q + h) n⌉, each
///   located in its bucket as the order statistics' ranks are (up to the largest wait
///   when q + h ≥ 1: a batch must hold 2 / (1 − q) samples, so the whole run's largest
///   lies far above its q-quantile). The batch quantiles themselves (`batchValues`) are what the independence
///   test reads: a tail quantile of a short batch is a poor linear estimate, and their
///   spread over √b understated the whole run's (half of it at ρ 0.95 for the p99).
public enum BatchMeans {
    /// The spans of simulated time a run records (`batches.series`).
    public static let baseBatches = 128
    /// Fewer batches than this give no interval.
    public static let minimumBatches = 10
    /// The batches an interval rests on when the run allows it (fewer and longer ones
    /// when the test of independence asks for them): 30, the top of the 10 to 30 that
    /// Schmeiser's study of batch sizes recommends. More batches give the variance
    /// estimate more degrees of freedom: with 20, a run that met no long busy period
    /// (at ρ 0.95 over 24 h) too often found its batches alike and its interval too narrow
    /// (docs/report.md, "Intervals").
    public static let intervalBatches = 30

    /// The width in whole seconds of one span of a run of `durationMicroseconds`: the run
    /// in ``baseBatches`` spans, rounded up (at least 1 s).
    public static func spanSeconds(durationMicroseconds: Int64) -> Int64 {
        let seconds = (Swift.max(durationMicroseconds, 0) + 999_999) / 1_000_000
        return Swift.max(1, (seconds + Int64(baseBatches) - 1) / Int64(baseBatches))
    }

    /// What is estimated from the batches.
    public enum Statistic: Sendable, Equatable {
        /// The q-quantile, q in (0, 1).
        case quantile(Double)
        case mean

        func of(_ h: LatencyHistogram) -> Double? {
            switch self {
            case .quantile(let q): return h.percentile(q * 100).map(Double.init)
            case .mean: return h.mean
            }
        }

        var minimumSamples: UInt64 {
            switch self {
            case .quantile(let q): return UInt64((2 / (1 - q)).rounded(.up))
            case .mean: return 10
            }
        }
    }

    /// The outcome, in the samples' unit (µs).
    public struct Outcome: Sendable, Equatable {
        public enum Status: String, Sendable, Equatable {
            case ok, correlated, insufficient
        }
        public var status: Status
        /// The statistic of the samples after the warm-up.
        public var centre: Double?
        /// The interval's ends (only with `ok`).
        public var low: Double?
        public var high: Double?
        /// The batches judged (the last tried when none passed), their figure each.
        public var batchValues: [Double]
        public var batchSeconds: Int64
        public var lag1: Double?
        /// Simulated time cut at the start as warm-up (and spans that did not fill a batch).
        public var warmUpSeconds: Int64

        /// Half the interval's width (a quantile's interval need not be symmetric about the centre).
        public var halfWidth: Double? { low.flatMap { l in high.map { ($0 - l) / 2 } } }
    }

    /// The interval of `statistic` from `spans` (one histogram per span of `spanSeconds`, in time order).
    public static func interval(_ statistic: Statistic, spans: [LatencyHistogram], spanSeconds: Int64) -> Outcome {
        let d = warmUp(spans)
        let kept = Array(spans[d...])
        let k = kept.count
        var last = Outcome(status: .insufficient, batchValues: [], batchSeconds: spanSeconds, warmUpSeconds: Int64(d) * spanSeconds)
        guard k >= minimumBatches else { return last }
        // Batch sizes: doubling while ``intervalBatches`` or more remain (where the test
        // has power), then every size that leaves from ``intervalBatches`` down to
        // ``minimumBatches`` batches.
        var sizes: [Int] = []
        var m = 1
        while k / m >= intervalBatches { sizes.append(m); m *= 2 }
        let coarsest = k / intervalBatches
        for m in Swift.max(coarsest, 1)...(k / minimumBatches) where !sizes.contains(m) { sizes.append(m) }
        sizes.sort()
        var independentAt: Int?  // the smallest size whose batches passed the test
        var everyBatchFilled = false
        for m in sizes {
            if let found = independentAt, m < Swift.max(found, coarsest) { continue }
            let b = k / m
            let cut = k - b * m  // spans that fill no batch: cut from the start
            var batches: [LatencyHistogram] = []
            for i in 0..<b {
                var h = LatencyHistogram()
                for j in 0..<m { h.merge(kept[cut + i * m + j]) }
                batches.append(h)
            }
            guard batches.allSatisfy({ $0.count >= statistic.minimumSamples }) else { continue }
            everyBatchFilled = true
            let values = batches.map { statistic.of($0) ?? 0 }
            let r1 = lag1(values)
            last = Outcome(status: .correlated, batchValues: values, batchSeconds: Int64(m) * spanSeconds, lag1: r1,
                           warmUpSeconds: Int64(d + cut) * spanSeconds)
            guard r1 <= 1.645 / Double(b).squareRoot() else { continue }
            if independentAt == nil { independentAt = m }
            // The interval rests on at most ``intervalBatches`` batches, each at least as
            // long as the first that passed.
            guard b <= intervalBatches || m >= coarsest else { continue }
            var all = LatencyHistogram()
            for h in batches { all.merge(h) }
            let centre = statistic.of(all) ?? 0
            let t = tQuantile975(degreesOfFreedom: b - 1)
            last.status = .ok
            last.centre = centre
            switch statistic {
            case .mean:
                let mean = values.reduce(0, +) / Double(b)
                let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(b - 1)
                let half = t * (variance / Double(b)).squareRoot()
                (last.low, last.high) = (centre - half, centre + half)
            case .quantile(let q):
                let h = t * shareStandardError(batches, atOrBelow: Int64(centre))
                let n = Double(all.count)
                // Ranks: 0 (from 0) when q − h ≤ 0; the largest wait when q + h ≥ 1.
                let lower = q - h <= 0 ? 0 : Swift.min(all.count, UInt64(((q - h) * n).rounded(.up)))
                let upper = Swift.min(all.count, UInt64((Swift.min(q + h, 1) * n).rounded(.up)))
                let ends = all.rankInterval(lower: lower, upper: upper)
                (last.low, last.high) = (Double(ends.low ?? 0), ends.high.map(Double.init))
            }
            return last
        }
        if !everyBatchFilled { last.status = .insufficient }
        return last
    }

    /// The standard error of the share of samples at or below `value` from `batches` (the
    /// ratio estimator's: residuals aᵢ − p̂ cᵢ over the mean count).
    static func shareStandardError(_ batches: [LatencyHistogram], atOrBelow value: Int64) -> Double {
        let b = Double(batches.count)
        let below = batches.map { Double($0.samples(throughBucketOf: value)) }, counts = batches.map { Double($0.count) }
        let total = counts.reduce(0, +)
        guard b > 1, total > 0 else { return 0 }
        let share = below.reduce(0, +) / total, meanCount = total / b
        let squares = zip(below, counts).reduce(0.0) { sum, x in
            let r = (x.0 - share * x.1) / meanCount
            return sum + r * r
        }
        return (squares / (b * (b - 1))).squareRoot()
    }

    /// MSER's truncation: the number of leading spans to cut (at most half of them, every
    /// one below the mean of the spans kept).
    static func warmUp(_ spans: [LatencyHistogram]) -> Int {
        let z = spans.map { $0.mean ?? 0 }
        let k = z.count
        guard k >= 4 else { return 0 }
        // Suffix sums give each d's mean and squared deviations in O(1).
        var sum = 0.0, squares = 0.0
        var scores = [Double](repeating: .infinity, count: k), means = [Double](repeating: 0, count: k)
        for j in stride(from: k - 1, through: 0, by: -1) {
            sum += z[j]
            squares += z[j] * z[j]
            let n = Double(k - j)
            scores[j] = (squares - sum * sum / n) / (n * n)
            means[j] = sum / n
        }
        var best = (d: 0, score: scores[0])
        var highestCut = -Double.infinity  // the largest mean among the first d spans
        for d in 1...(k / 2) {
            highestCut = Swift.max(highestCut, z[d - 1])
            if highestCut < means[d], scores[d] < best.score { best = (d, scores[d]) }
        }
        return best.d
    }

    /// The lag-1 autocorrelation of `x` (0 for a constant series).
    static func lag1(_ x: [Double]) -> Double {
        let n = x.count
        guard n > 2 else { return 0 }
        let mean = x.reduce(0, +) / Double(n)
        var c0 = 0.0, c1 = 0.0
        for i in 0..<n {
            c0 += (x[i] - mean) * (x[i] - mean)
            if i + 1 < n { c1 += (x[i] - mean) * (x[i + 1] - mean) }
        }
        return c0 > 0 ? c1 / c0 : 0
    }

    /// Student's t 97.5 % quantile: the Cornish-Fisher series in 1/ν (within 0.002 of
    /// the tables from ν = 5 on; this code uses ν ≥ 9).
    public static func tQuantile975(degreesOfFreedom nu: Int) -> Double {
        let z = 1.959_963_984_540_054, v = Double(Swift.max(nu, 1))
        let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z
        return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
    }
}
