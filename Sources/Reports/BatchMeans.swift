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
///   batches of 5 samples).
/// - **Batches**: the spans left are grouped into b batches of m consecutive spans (the
///   spans that do not fill a batch are cut from the start, with the warm-up). Each
///   batch's figure yᵢ is the statistic of its own samples: its percentile (a batch
///   quantile) or its mean. A batch must hold at least 2 / (1 − q) samples for a
///   q-quantile (10 for a mean); an empty or smaller batch widens the batches.
/// - **Independence** (as Law and Carson's LBATCH): the batches' lag-1 autocorrelation r₁
///   must be at most 1.645 / √b (no evidence of positive correlation at 5 %). It is
///   tested first on many short batches (m = 1, 2, 4, … while 20 or more remain, where the
///   test has power); the interval then rests on about ``intervalBatches`` batches at
///   least as long as the first that passed, which must pass too; when no test with 20
///   batches passes, on the first of 19 down to 10 longer batches that does.
/// - At least ``minimumBatches`` batches must remain: fewer, because r₁ never passed,
///   is `correlated`; because the samples are too few, `insufficient`. Neither gives an
///   interval, and a verdict resting on it is inconclusive.
/// - The interval (sectioning): centre the statistic of all samples after the warm-up,
///   half-width t₀.₉₇₅,b−1 × s / √b, s the batches' standard deviation.
public enum BatchMeans {
    /// The spans of simulated time a run records (`batches.series`).
    public static let baseBatches = 128
    /// Fewer batches than this give no interval.
    public static let minimumBatches = 10
    /// The batches an interval rests on when the run allows it (fewer and longer ones
    /// when the test of independence asks for them).
    public static let intervalBatches = 20

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
        public var halfWidth: Double?
        /// The batches judged (the last tried when none passed), their figure each.
        public var batchValues: [Double]
        public var batchSeconds: Int64
        public var lag1: Double?
        /// Simulated time cut at the start as warm-up (and spans that did not fill a batch).
        public var warmUpSeconds: Int64

        public var low: Double? { status == .ok ? centre.flatMap { c in halfWidth.map { c - $0 } } : nil }
        public var high: Double? { status == .ok ? centre.flatMap { c in halfWidth.map { c + $0 } } : nil }
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
            let mean = values.reduce(0, +) / Double(b)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(b - 1)
            last.status = .ok
            last.centre = statistic.of(all)
            last.halfWidth = tQuantile975(degreesOfFreedom: b - 1) * (variance / Double(b)).squareRoot()
            return last
        }
        if !everyBatchFilled { last.status = .insufficient }
        return last
    }

    /// MSER's truncation: the number of leading spans to cut (at most half of them).
    static func warmUp(_ spans: [LatencyHistogram]) -> Int {
        let z = spans.map { $0.mean ?? 0 }
        let k = z.count
        guard k >= 4 else { return 0 }
        // Suffix sums give each d's mean and squared deviations in O(1).
        var sum = 0.0, squares = 0.0
        var best = (d: 0, score: Double.infinity)
        var scores = [Double](repeating: .infinity, count: k)
        for j in stride(from: k - 1, through: 0, by: -1) {
            sum += z[j]
            squares += z[j] * z[j]
            let n = Double(k - j)
            scores[j] = (squares - sum * sum / n) / (n * n)
        }
        for d in 0...(k / 2) where scores[d] < best.score { best = (d, scores[d]) }
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
