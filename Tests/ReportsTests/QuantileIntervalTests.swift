import Testing
@testable import Reports

/// The ranks of the distribution-free 95 % interval of a quantile, against the exact
/// binomial computed independently (exact fractions: C(n,k) qᵏ (1 − q)ⁿ⁻ᵏ summed as
/// rationals, l − 1 the largest k with F(k) ≤ 1/40, u − 1 the smallest with F(k) ≥ 39/40).
@Suite struct QuantileIntervalTests {
    /// Small n worked by hand: n = 1, 2, 5 (median) and p95 with fewer than 72 samples
    /// have no upper bound; n = 6 bounds the median by min and max
    /// (F(0) = 1/64 ≤ 2.5 % < F(1) = 7/64; F(4) = 57/64 < 97.5 % ≤ F(5) = 63/64).
    @Test func tinySampleCountsMatchTheHandComputation() {
        #expect(QuantileInterval.ranks(count: 1, quantile: 0.5) == (0, 2))
        #expect(QuantileInterval.ranks(count: 2, quantile: 0.5) == (0, 3))
        #expect(QuantileInterval.ranks(count: 5, quantile: 0.5) == (0, 6))
        #expect(QuantileInterval.ranks(count: 6, quantile: 0.5) == (1, 6))
        #expect(QuantileInterval.ranks(count: 10, quantile: 0.9) == (7, 11))
        #expect(QuantileInterval.ranks(count: 1, quantile: 0.99) == (1, 2))  // F(0) = 0.01 ≤ 2.5 %
        #expect(QuantileInterval.ranks(count: 0, quantile: 0.95) == (0, 1))
    }

    /// Where an upper bound first exists: 1 − qⁿ ≥ 97.5 %, so n ≥ 72 for the p95
    /// (0.95⁷¹ = 0.0262, 0.95⁷² = 0.0249) and n ≥ 368 for the p99 (0.99³⁶⁷ = 0.02501).
    @Test func theUpperBoundAppearsAt72SamplesForP95And368ForP99() {
        #expect(QuantileInterval.ranks(count: 71, quantile: 0.95) == (63, 72))
        #expect(QuantileInterval.ranks(count: 72, quantile: 0.95) == (64, 72))
        #expect(QuantileInterval.ranks(count: 366, quantile: 0.99) == (358, 367))
        #expect(QuantileInterval.ranks(count: 367, quantile: 0.99) == (359, 368))
        #expect(QuantileInterval.ranks(count: 368, quantile: 0.99) == (360, 368))
    }

    /// Mid-sized n: the textbook median interval of 100 samples (ranks 40 and 61) and the
    /// default scenario's sample counts.
    @Test func midSizedCountsMatchTheExactBinomial() {
        #expect(QuantileInterval.ranks(count: 100, quantile: 0.5) == (40, 61))
        #expect(QuantileInterval.ranks(count: 80, quantile: 0.95) == (72, 80))
        #expect(QuantileInterval.ranks(count: 83, quantile: 0.95) == (75, 83))
        #expect(QuantileInterval.ranks(count: 191, quantile: 0.95) == (175, 188))
        #expect(QuantileInterval.ranks(count: 100, quantile: 0.99) == (97, 101))
        #expect(QuantileInterval.ranks(count: 1_000, quantile: 0.99) == (983, 997))
        #expect(QuantileInterval.ranks(count: 3_000, quantile: 0.99) == (2_959, 2_981))
    }

    /// Large n, up to the exact limit (reference: the binomial terms in log space around
    /// the mode, ±60 σ), and beyond it the normal approximation.
    @Test func largeCountsMatchTheExactBinomial() {
        #expect(QuantileInterval.ranks(count: 1_000_000, quantile: 0.5) == (499_020, 500_981))
        #expect(QuantileInterval.ranks(count: 1_000_000, quantile: 0.95) == (949_572, 950_428))
        #expect(QuantileInterval.ranks(count: 1_000_000, quantile: 0.99) == (989_805, 990_196))
        #expect(QuantileInterval.ranks(count: 10_000_000, quantile: 0.5) == (4_996_901, 5_003_100))
        #expect(QuantileInterval.ranks(count: 10_000_000, quantile: 0.95) == (9_498_649, 9_501_351))
        #expect(QuantileInterval.ranks(count: 10_000_000, quantile: 0.99) == (9_899_383, 9_900_617))
        // Beyond it, the normal approximation: within one rank of the exact ranks (here the
        // upper rank one above: the skewed binomial's upper tail is shorter than the normal's).
        for (n, q, exact) in [(UInt64(10_000_001), 0.99, (UInt64(9_899_384), UInt64(9_900_618))),
                              (50_000_000, 0.95, (47_496_979, 47_503_021)), (123_456_789, 0.99, (122_220_054, 122_224_388))] {
            let r = QuantileInterval.ranks(count: n, quantile: q)
            #expect(r.lower.distance(to: exact.0).magnitude <= 1 && r.upper.distance(to: exact.1).magnitude <= 1, "n = \(n): \(r)")
        }
    }

    /// At the switch from exact to normal, both methods agree within one rank.
    @Test func exactAndNormalAgreeWithinOneRankAtTheSwitch() {
        let n = QuantileInterval.exactLimit
        for q in [0.5, 0.9, 0.95, 0.99] {
            let exact = QuantileInterval.exactRanks(count: n, quantile: q)
            let normal = QuantileInterval.normalRanks(count: n, quantile: q)
            #expect(exact.lower.distance(to: normal.lower).magnitude <= 1 && exact.upper.distance(to: normal.upper).magnitude <= 1,
                    "q = \(q): exact \(exact), normal \(normal)")
        }
    }

    /// The point estimate's rank ⌈qn⌉ lies inside [l, u] for every n up to 2,000, so a
    /// reported percentile always lies inside its interval; both ranks grow with n.
    @Test func thePercentilesRankLiesInsideItsInterval() {
        for q in [0.5, 0.9, 0.95, 0.99] {
            var previous: (lower: UInt64, upper: UInt64) = (0, 1)
            for n in UInt64(1)...2_000 {
                let r = QuantileInterval.ranks(count: n, quantile: q)
                let rank = UInt64((q * Double(n)).nextDown.rounded(.up))
                #expect(r.lower <= rank && rank <= r.upper, "n = \(n), q = \(q): \(r), rank \(rank)")
                #expect(r.lower >= previous.lower && r.upper >= previous.upper, "n = \(n), q = \(q)")
                previous = r
            }
        }
    }

    /// Ranks map to bucket edges, clamped by the exact min and max: 80 samples of 1 h,
    /// 2 h, … 80 h; the p95's ranks are 72 and 80, so the interval runs from the lower
    /// edge of 72 h's bucket (2³⁷ + 113 · 2³⁰ µs = 71.88 h) to the maximum, 80 h.
    @Test func theIntervalRunsFromTheLowerRanksBucketEdgeToTheUpperRanksClampedToMax() throws {
        var h = LatencyHistogram()
        for k in Int64(1)...80 { h.record(k * 3_600_000_000) }
        let p95 = try #require(h.quantileInterval(0.95))
        #expect(p95.low == Int64(137_438_953_472 + 113 * 1_073_741_824))
        #expect(p95.high == Int64(80 * 3_600_000_000))
        // The median's ranks (ranks(80, 0.5)) land inside buckets: edges, not samples.
        let median = try #require(h.quantileInterval(0.5))
        let (l, u) = QuantileInterval.ranks(count: 80, quantile: 0.5)
        let sampleL = Int64(l) * 3_600_000_000, sampleU = Int64(u) * 3_600_000_000
        #expect(try #require(median.low) <= sampleL && sampleL - median.low! < sampleL / 128)
        #expect(try #require(median.high) >= sampleU && median.high! - sampleU < sampleU / 128)
        // Too few samples for an upper bound: open above.
        var few = LatencyHistogram()
        for k in Int64(1)...40 { few.record(k * 3_600_000_000) }
        #expect(few.quantileInterval(0.95)?.high == nil)
        #expect(few.quantileInterval(0.95)?.low != nil)
        #expect(LatencyHistogram().quantileInterval(0.95) == nil)
    }
}
