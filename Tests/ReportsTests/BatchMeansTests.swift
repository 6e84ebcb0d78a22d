import Testing
import SimKernel
@testable import Reports

/// Batch means at the edges (docs/report.md, "Intervals"): independent spans give an
/// interval around the whole's figure; a series that drifts in one direction across the
/// whole run stays correlated however it is batched; too few samples are insufficient;
/// a start far from the rest is cut as warm-up.
@Suite struct BatchMeansTests {
    /// 128 spans of `perSpan` samples each, the span's samples from `value(span, i)` (µs).
    static func spans(_ count: Int = 128, perSpan: Int, _ value: (Int, Int) -> Int64) -> [LatencyHistogram] {
        (0..<count).map { s in
            var h = LatencyHistogram()
            for i in 0..<perSpan { h.record(value(s, i)) }
            return h
        }
    }

    @Test func independentSpansGiveAnIntervalAroundTheWhole() {
        var rng = RandomStream(seed: 5, entity: 0, purpose: "batch")
        let spans = Self.spans(perSpan: 200) { _, _ in Int64(rng.exponential(mean: 1_000_000)) }
        let o = BatchMeans.interval(.quantile(0.9), spans: spans, spanSeconds: 60)
        #expect(o.status == .ok)
        let truth = 1_000_000 * 2.302_585  // exponential p90: ln 10 × mean
        #expect(o.low! <= truth && truth <= o.high!, "\(o.low!)-\(o.high!)")
        #expect(o.batchValues.count >= BatchMeans.minimumBatches && o.batchValues.count <= 2 * BatchMeans.intervalBatches)
        var all = LatencyHistogram()
        for h in spans { all.merge(h) }
        #expect(o.warmUpSeconds > 0 || o.centre == all.percentile(90).map(Double.init))
        let mean = BatchMeans.interval(.mean, spans: spans, spanSeconds: 60)
        #expect(mean.status == .ok && mean.low! <= 1_000_000 && 1_000_000 <= mean.high!)
    }

    /// Batches that pass the test of independence at once: the interval rests on 30 or
    /// more of them (here 32 of 4 spans each of a run's 128), the top of the 10 to 30 that
    /// batch-size studies recommend, not on 20 longer ones whose variance estimate has
    /// fewer degrees of freedom and, in a calm run of a queue near saturation, came out
    /// too small.
    @Test func independentBatchesGiveThirtyOrMore() {
        var rng = RandomStream(seed: 7, entity: 0, purpose: "batch")
        let spans = Self.spans(perSpan: 200) { _, _ in Int64(rng.exponential(mean: 1_000_000)) }
        for statistic in [BatchMeans.Statistic.quantile(0.99), .mean] {
            let o = BatchMeans.interval(statistic, spans: spans, spanSeconds: 60)
            #expect(o.status == .ok && o.warmUpSeconds == 0)
            #expect(o.batchValues.count == 32 && o.batchSeconds == 4 * 60, "\(statistic): \(o.batchValues.count) batches of \(o.batchSeconds) s")
        }
    }

    /// A percentile's interval comes from each batch's share of samples at or below the
    /// whole run's percentile: spans alike give every batch the same share, so the
    /// interval shrinks to that percentile's own bucket; a p99 whose share cannot be
    /// bounded below 1 reaches up to the largest sample, never beyond.
    @Test func aPercentilesIntervalRestsOnTheBatchesShares() {
        let alike = Self.spans(perSpan: 100) { _, i in Int64(i + 1) * 10_000 }  // 10 ms to 1 s in every span
        let o = BatchMeans.interval(.quantile(0.9), spans: alike, spanSeconds: 60)
        #expect(o.status == .ok)
        let centre = o.centre!
        #expect(o.low! <= centre && centre <= o.high! && o.high! - o.low! <= centre / 64, "\(o.low!)-\(o.high!) around \(centre)")
        // One span in eight holds the long waits: the batches' shares at or below the p99
        // differ widely, and the upper end is the largest wait.
        var rng = RandomStream(seed: 3, entity: 0, purpose: "batch")
        let bursty = Self.spans(perSpan: 400) { s, _ in Int64(rng.exponential(mean: s % 8 == 0 ? 50_000_000 : 1_000_000)) }
        let p99 = BatchMeans.interval(.quantile(0.99), spans: bursty, spanSeconds: 60)
        var all = LatencyHistogram()
        for h in bursty { all.merge(h) }
        #expect(p99.status == .ok && p99.high! <= Double(all.max!) && p99.low! < p99.centre! && p99.centre! < p99.high!)
    }

    @Test func aDriftAcrossTheRunIsCorrelated() {
        // The spans' waits grow steadily: every batching's neighbours resemble each other.
        let o = BatchMeans.interval(.mean, spans: Self.spans(perSpan: 50) { s, i in Int64(s * 10_000 + i) }, spanSeconds: 60)
        #expect(o.status == .correlated && o.low == nil && o.lag1! > 0.5)
    }

    @Test func tooFewSamplesAreInsufficient() {
        // One sample a span: no batch of 10 spans or more holds the 200 a p99 needs.
        let o = BatchMeans.interval(.quantile(0.99), spans: Self.spans(perSpan: 1) { _, _ in 5 }, spanSeconds: 60)
        #expect(o.status == .insufficient && o.low == nil)
        #expect(BatchMeans.interval(.mean, spans: [LatencyHistogram()], spanSeconds: 60).status == .insufficient)
    }

    /// An empty start (waits far below the rest's) is cut; a busy start (far above) is a
    /// busy period, kept: cutting it would leave only calm spans and estimate low.
    @Test func anEmptyStartIsCutAsWarmUpAndABusyStartIsKept() {
        var rng = RandomStream(seed: 9, entity: 0, purpose: "batch")
        // The first 8 spans wait 100 times shorter, then the steady state.
        let empty = Self.spans(perSpan: 100) { s, _ in Int64(rng.exponential(mean: s < 8 ? 10_000 : 1_000_000)) }
        let o = BatchMeans.interval(.mean, spans: empty, spanSeconds: 60)
        #expect(o.warmUpSeconds >= 8 * 60)
        #expect(o.status == .ok && o.low! <= 1_000_000 && 1_000_000 <= o.high!)
        // The first 8 spans wait 100 times longer: nothing of them is cut.
        let busy = Self.spans(perSpan: 100) { s, _ in Int64(rng.exponential(mean: s < 8 ? 100_000_000 : 1_000_000)) }
        #expect(BatchMeans.warmUp(busy) == 0)
    }

    @Test func studentsTAgainstTheTables() {
        for (nu, t) in [(9, 2.262), (19, 2.093), (30, 2.042), (120, 1.980)] {
            #expect(abs(BatchMeans.tQuantile975(degreesOfFreedom: nu) - t) < 0.002, "\(nu)")
        }
    }
}
