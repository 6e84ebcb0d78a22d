import Testing
import SimKernel
@testable import Reports

/// The sparse histogram `merge` reads `latencyOverTime.series` with: it accepts what the
/// dense ``LatencyHistogram`` accepts, and its merge writes the dense merge's encoding,
/// byte for byte.
@Suite struct SparseLatencyHistogramTests {
    /// Histograms like a bucket of time's: a few samples, some exact (< 256 µs), some
    /// large, sometimes empty.
    static func histograms(_ count: Int, seed: UInt64) -> [LatencyHistogram] {
        var rng = RandomStream(splitMixSeed: seed)
        return (0..<count).map { _ in
            var h = LatencyHistogram()
            for _ in 0 ..< Int(rng.next() % 6) {
                let v = Int64(rng.next() % 3 == 0 ? rng.next() % 256 : rng.next() % 40_000_000)
                h.record(v, count: 1 + rng.next() % 3)
            }
            return h
        }
    }

    @Test func mergedIsTheDenseMergeByteForByte() throws {
        for (seed, parts) in [(1, 1), (2, 2), (3, 3), (4, 16), (5, 17)] as [(UInt64, Int)] {
            let dense = Self.histograms(parts, seed: seed)
            var whole = LatencyHistogram()
            for h in dense { whole.merge(h) }
            let sparse = try dense.map { try #require(SparseLatencyHistogram(exactEncoding: $0.exactEncoding)) }
            #expect(JSONWriter.encode(SparseLatencyHistogram.merged(sparse).exactEncoding) == JSONWriter.encode(whole.exactEncoding), "seed \(seed)")
        }
        #expect(SparseLatencyHistogram.merged([]).exactEncoding == LatencyHistogram().exactEncoding)
    }

    /// The percentiles report.md and report.html chart per bucket of time, read from the
    /// sparse form: the dense type's, at the edges too (0, a share exactly at a bucket's
    /// end, 100, beyond, NaN) and on empty histograms.
    @Test func percentilesAreTheDenseTypes() throws {
        let ps: [Double] = [-1, 0, 1, 25, 50, 90, 95, 99, 99.9, 100, 101, .nan]
        for h in Self.histograms(200, seed: 9) {
            let sparse = try #require(SparseLatencyHistogram(exactEncoding: h.exactEncoding))
            for p in ps { #expect(sparse.percentile(p) == h.percentile(p), "p \(p) of \(h.count) samples") }
        }
        var tied = LatencyHistogram()
        tied.record(10, count: 50)
        tied.record(5_000_000, count: 50)
        let sparse = try #require(SparseLatencyHistogram(exactEncoding: tied.exactEncoding))
        #expect(sparse.percentile(50) == 10 && tied.percentile(50) == 10)
        #expect(sparse.percentile(50.0001) == tied.percentile(50.0001) && tied.percentile(50.0001)! > 10)
    }

    /// Saturation: counts at 2⁶⁴ − 1 and a sum at 2¹²⁸ − 1 stay there, as the dense merge's.
    @Test func saturatesAsTheDenseType() throws {
        var big = LatencyHistogram()
        big.record(Int64.max, count: UInt64.max)
        big.record(Int64.max, count: 5)
        let sparse = try #require(SparseLatencyHistogram(exactEncoding: big.exactEncoding))
        var twice = big
        twice.merge(big)
        #expect(SparseLatencyHistogram.merged([sparse, sparse]).exactEncoding == twice.exactEncoding)
    }

    /// Every encoding the dense type refuses, this one refuses too (and accepts the rest).
    @Test func refusesWhatTheDenseTypeRefuses() {
        var h = LatencyHistogram()
        for v: Int64 in [3, 300, 70_000] { h.record(v) }
        guard case .object(let good) = h.exactEncoding else { Issue.record("not an object"); return }
        func with(_ key: String, _ value: ReportValue) -> ReportValue { .object(good.merging([key: value]) { $1 }) }
        let cases: [ReportValue] = [
            h.exactEncoding, LatencyHistogram().exactEncoding, .int(3), .object([:]),
            with("layout", .string("other")), with("count", .int(4)), with("count", .int(-1)), with("sum", .string("x")),
            with("buckets", .array([.int(3), .int(1)])), with("buckets", .array([.int(3), .int(1), .int(300), .int(1), .int(70_000)])),
            with("buckets", .array([.int(300), .int(1), .int(3), .int(1), .int(69_632), .int(1)])),
            with("buckets", .array([.int(3), .int(1), .int(301), .int(1), .int(69_632), .int(1)])),
            with("buckets", .array([.int(3), .int(0), .int(300), .int(2), .int(69_632), .int(1)])),
            with("min", .int(4)), with("min", .null), with("max", .int(10)), with("max", .int(2)), with("min", .int(-1)),
            with("buckets", .array([.int(3), .string("1"), .int(300), .int(1), .int(69_632), .int(1)])),
        ]
        for (i, encoding) in cases.enumerated() {
            let dense = LatencyHistogram(exactEncoding: encoding)
            let sparse = SparseLatencyHistogram(exactEncoding: encoding)
            #expect((dense == nil) == (sparse == nil), "case \(i)")
            if let dense, let sparse { #expect(sparse.exactEncoding == dense.exactEncoding, "case \(i)") }
        }
    }
}
