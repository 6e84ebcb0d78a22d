import Testing
import SimKernel
@testable import Reports

/// Values spread log-uniformly from 1 µs to 90 days, from a seeded FleetSim stream:
/// a power of two 2ᵉ (e uniform in 0...42) plus a uniform offset below 2ᵉ, capped at 90 days.
private func logUniformSamples(count: Int, seed: UInt64) -> [Int64] {
    let ninetyDays: Int64 = 90 * 86_400 * 1_000_000
    var rng = RandomStream(splitMixSeed: seed)
    var samples: [Int64] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let e = rng.next() % 43
        let offset = rng.next() & ((1 << e) - 1)
        samples.append(Swift.min(Int64((1 << e) + offset), ninetyDays))
    }
    return samples
}

/// The sample of rank ceil(p/100 · n) (at least 1) of sorted samples.
private func exactPercentile(_ sorted: [Int64], _ p: Double) -> Int64 {
    let rank = Swift.max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))
    return sorted[Swift.min(rank, sorted.count) - 1]
}

private let percentileGrid: [Double] = [0, 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100]

@Suite struct LatencyHistogramTests {
    @Test func emptyHistogramHasNoStatistics() {
        let h = LatencyHistogram()
        #expect(h.count == 0)
        #expect(h.isEmpty)
        #expect(h.min == nil)
        #expect(h.max == nil)
        #expect(h.mean == nil)
        #expect(h.sum == 0)
        #expect(h.percentile(50) == nil)
        #expect(h.percentile(100) == nil)
        #expect(h.buckets().isEmpty)
        var merged = LatencyHistogram()
        merged.merge(h)
        #expect(merged == h)
    }

    @Test func percentilesOfOneToHundredAreExact() {
        var h = LatencyHistogram()
        for v in Int64(1)...100 { h.record(v) }
        #expect(h.count == 100)
        #expect(h.min == 1)
        #expect(h.max == 100)
        #expect(h.mean == 50.5)
        #expect(h.percentile(0) == 1)
        #expect(h.percentile(0.5) == 1)
        #expect(h.percentile(1) == 1)
        #expect(h.percentile(50) == 50)
        #expect(h.percentile(90) == 90)
        #expect(h.percentile(95) == 95)
        #expect(h.percentile(99) == 99)
        #expect(h.percentile(99.5) == 100)
        #expect(h.percentile(100) == 100)
        #expect(h.percentile(250) == 100)
        #expect(h.percentile(-3) == 1)
        #expect(h.percentile(.nan) == nil)
    }

    @Test func percentilesOfSmallUnevenSet() {
        var h = LatencyHistogram()
        for v: Int64 in [7, 3, 3, 200, 42] { h.record(v) }
        // Sorted: 3 3 7 42 200.
        #expect(h.percentile(20) == 3)
        #expect(h.percentile(40) == 3)
        #expect(h.percentile(41) == 7)
        #expect(h.percentile(60) == 7)
        #expect(h.percentile(80) == 42)
        #expect(h.percentile(81) == 200)
        #expect(h.mean == 51)
        #expect(h.buckets().map(\.count) == [2, 1, 1, 1])
        #expect(h.buckets().map(\.lowerBound) == [3, 7, 42, 200])
    }

    @Test func singleSampleIsReturnedExactly() {
        for value: Int64 in [0, 1, 255, 256, 257, 123_456_789, 7_776_000_000_000, .max] {
            var h = LatencyHistogram()
            h.record(value)
            for p in percentileGrid { #expect(h.percentile(p) == value, "value \(value) p\(p)") }
            #expect(h.min == value)
            #expect(h.max == value)
        }
    }

    @Test func negativeValuesClampToZero() {
        var h = LatencyHistogram()
        h.record(-5)
        h.record(.min, count: 2)
        #expect(h.count == 3)
        #expect(h.min == 0)
        #expect(h.max == 0)
        #expect(h.percentile(50) == 0)
    }

    @Test func bucketsTileTheWholeRangeWithBoundedWidth() {
        var expectedLower: Int64 = 0
        for index in 0..<LatencyHistogram.bucketCount {
            let (lower, upper) = LatencyHistogram.bucketBounds(index)
            #expect(lower == expectedLower, "bucket \(index)")
            #expect(upper >= lower)
            #expect(LatencyHistogram.bucketIndex(of: lower) == index)
            #expect(LatencyHistogram.bucketIndex(of: upper) == index)
            if lower < 256 {
                #expect(upper == lower)
            } else {
                #expect(Double(upper - lower + 1) <= Double(lower) / 128, "bucket \(index) too wide")
            }
            if upper == .max { #expect(index == LatencyHistogram.bucketCount - 1); break }
            expectedLower = upper + 1
        }
        #expect(LatencyHistogram.bucketIndex(of: .max) == LatencyHistogram.bucketCount - 1)
    }

    /// Every value's reported bucket midpoint is within 1 % (in fact 1/256) of it, from
    /// 1 µs to 90 days. A histogram {0, v, Int64.max} reports v's midpoint unclamped at p50.
    @Test func relativeErrorIsWithinOnePercentAcrossMagnitudes() {
        var values = logUniformSamples(count: 3_000, seed: 7)
        for shift in 0..<43 { values += [(1 << shift) - 1, 1 << shift, (1 << shift) + 1] }
        values.append(7_776_000_000_000)  // 90 days
        var worst = 0.0
        for v in values where v >= 1 {
            var h = LatencyHistogram()
            h.record(0)
            h.record(v)
            h.record(.max)
            guard let reported = h.percentile(50) else { Issue.record("no p50"); return }
            let error = Double((reported - v).magnitude) / Double(v)
            worst = Swift.max(worst, error)
            #expect(error <= 0.01, "value \(v) reported \(reported)")
        }
        #expect(worst <= LatencyHistogram.relativeErrorBound)
        #expect(worst > 0.001, "the sweep should reach inexact buckets")
    }

    @Test func percentilesOfLargeSampleTrackExactOnes() {
        let samples = logUniformSamples(count: 50_000, seed: 7)
        var h = LatencyHistogram()
        for v in samples { h.record(v) }
        let sorted = samples.sorted()
        #expect(sorted.first ?? 0 < 10, "spread should reach microseconds")
        #expect(sorted.last ?? 0 > 1_000_000_000_000, "spread should reach weeks")
        for p in percentileGrid {
            let exact = exactPercentile(sorted, p)
            guard let reported = h.percentile(p) else { Issue.record("no p\(p)"); continue }
            let error = Double((reported - exact).magnitude) / Double(Swift.max(exact, 1))
            #expect(error <= 0.01, "p\(p): exact \(exact) reported \(reported)")
        }
        #expect(h.min == sorted.first)
        #expect(h.max == sorted.last)
        #expect(h.percentile(100) == sorted.last)
        let exactMean = sorted.reduce(0.0) { $0 + Double($1) } / Double(sorted.count)
        #expect(((h.mean ?? 0) - exactMean).magnitude <= exactMean * 1e-12)
    }

    @Test func mergingShardsEqualsRecordingAllInOne() {
        let samples = logUniformSamples(count: 20_000, seed: 11)
        var all = LatencyHistogram(), first = LatencyHistogram(), second = LatencyHistogram()
        var rng = RandomStream(splitMixSeed: 99)
        for v in samples {
            all.record(v)
            if rng.next() & 1 == 0 { first.record(v) } else { second.record(v) }
        }
        #expect(first.count > 9_000 && second.count > 9_000)
        #expect(first != all)

        var merged = first
        merged.merge(second)
        #expect(merged == all)
        #expect(merged.count == all.count)
        #expect(merged.min == all.min)
        #expect(merged.max == all.max)
        #expect(merged.sum == all.sum)
        #expect(merged.buckets().map(\.lowerBound) == all.buckets().map(\.lowerBound))
        #expect(merged.buckets().map(\.upperBound) == all.buckets().map(\.upperBound))
        #expect(merged.buckets().map(\.count) == all.buckets().map(\.count))
        for p in percentileGrid { #expect(merged.percentile(p) == all.percentile(p)) }

        var reversed = second
        reversed.merge(first)
        #expect(reversed == all)
        var withEmpty = LatencyHistogram()
        withEmpty.merge(all)
        withEmpty.merge(LatencyHistogram())
        #expect(withEmpty == all)
    }

    @Test func recordWithCountEqualsRepeatedRecords() {
        var repeated = LatencyHistogram(), batched = LatencyHistogram()
        for _ in 0..<5 { repeated.record(1_234_567) }
        repeated.record(9)
        batched.record(1_234_567, count: 5)
        batched.record(9, count: 1)
        batched.record(123, count: 0)
        #expect(batched == repeated)
        #expect(batched.count == 6)
        #expect(batched.min == 9)
    }

    @Test func countsAndSumSaturateInsteadOfTrapping() {
        var h = LatencyHistogram()
        h.record(.max, count: .max)
        h.record(.max, count: .max)
        h.record(.max)
        #expect(h.count == .max)
        #expect(h.percentile(50) == .max)
        // 2 · (2⁶³ − 1)(2⁶⁴ − 1) + 2⁶³ − 1 still fits in 128 bits: exact.
        #expect(h.exactEncoding.lookup("sum") == .string("340282366920938463417257747247494332417"))
        h.record(.max, count: .max)
        #expect(h.exactEncoding.lookup("sum") == .string("340282366920938463463374607431768211455"))
        var merged = h
        merged.merge(h)
        #expect(merged == h, "saturated counts and sum stay saturated")
    }

    @Test func sumIsExactBeyondSixtyFourBits() {
        var h = LatencyHistogram()
        h.record(.max, count: 4)
        #expect(h.exactEncoding.lookup("sum") == .string("36893488147419103228"))
        #expect(h.mean == Double(Int64.max))
    }

    @Test func exactEncodingRoundTrips() {
        var h = LatencyHistogram()
        for v in logUniformSamples(count: 2_000, seed: 3) { h.record(v) }
        h.record(.max, count: 3)
        let encoded = h.exactEncoding
        #expect(LatencyHistogram(exactEncoding: encoded) == h)
        #expect(LatencyHistogram(exactEncoding: LatencyHistogram().exactEncoding) == LatencyHistogram())
        #expect(JSONWriter.encode(encoded) == JSONWriter.encode(h.exactEncoding))
    }

    @Test func exactEncodingRejectsInconsistentInput() throws {
        var h = LatencyHistogram()
        for v: Int64 in [5, 1_000, 1_000_000] { h.record(v) }
        guard case .object(let good) = h.exactEncoding else { Issue.record("not an object"); return }
        #expect(LatencyHistogram(exactEncoding: .object(good)) == h)
        var tampered = good
        tampered["count"] = .int(4)
        #expect(LatencyHistogram(exactEncoding: .object(tampered)) == nil)
        tampered = good
        tampered["layout"] = "log-linear-64"
        #expect(LatencyHistogram(exactEncoding: .object(tampered)) == nil)
        tampered = good
        tampered["min"] = .int(6)  // not in the first bucket
        #expect(LatencyHistogram(exactEncoding: .object(tampered)) == nil)
        tampered = good
        tampered["buckets"] = [1_000_001, 1, 5, 1, 1_000, 1]  // not ascending, not a lower bound
        #expect(LatencyHistogram(exactEncoding: .object(tampered)) == nil)
        tampered = good
        tampered["sum"] = "12x"
        #expect(LatencyHistogram(exactEncoding: .object(tampered)) == nil)
    }

    @Test func latencySummaryIsInSecondsWithItsBucketsInMicroseconds() {
        var h = LatencyHistogram()
        h.record(1_500_000)
        #expect(JSONWriter.encode(h.latencySummary()) == """
            {
              "count": 1,
              "histogram": {
                "buckets": [1499136, 1],
                "count": 1,
                "layout": "log-linear-128",
                "max": 1500000,
                "min": 1500000,
                "sum": "1500000"
              },
              "max": 1.500000,
              "p50": 1.500000,
              "p90": 1.500000,
              "p95": 1.500000,
              "p99": 1.500000
            }

            """)
        #expect(LatencyHistogram().latencySummary().lookup("p95") == .null)
        #expect(LatencyHistogram().latencySummary().lookup("histogram.buckets") == .array([]))
    }

    /// Two shards' report objects merge into exactly the histogram of all samples, so
    /// the merged p95 is the one a single run would have reported.
    @Test func reportSummariesOfShardsMergeExactly() throws {
        var a = LatencyHistogram(), b = LatencyHistogram(), all = LatencyHistogram()
        for i in 0..<1_000 {
            let v = Int64(i * i * 37 % 9_000_001)
            if i % 3 == 0 { a.record(v) } else { b.record(v) }
            all.record(v)
        }
        let encodedA = try #require(a.latencySummary().lookup("histogram"))
        let encodedB = try #require(b.latencySummary().lookup("histogram"))
        var merged = try #require(LatencyHistogram(exactEncoding: encodedA))
        merged.merge(try #require(LatencyHistogram(exactEncoding: encodedB)))
        #expect(merged == all)
        #expect(merged.latencySummary() == all.latencySummary())
        #expect(merged.percentile(95) != a.percentile(95))
    }
}
