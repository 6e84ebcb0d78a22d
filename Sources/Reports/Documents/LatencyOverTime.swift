/// One latency's percentiles per bucket of simulated time, read from `report.json`'s
/// `latencyOverTime`: what report.html draws as "latency over time" (a rise during an
/// outage shows where it happens, which a whole-run distribution cannot).
///
/// The input (written by the simulation, one entry per latency summary that has samples):
///
///     "latencyOverTime": {
///       "bucketSeconds": 3600,
///       "series": [
///         {"of": "latency.createdToDelivered.high",
///          "histograms": [<histogram>, <histogram>, …]}, …]}
///
/// - `of` is the dotted path of the whole-run latency summary the samples belong to.
/// - `histograms` has one entry per bucket from the run's start (bucket i covers
///   `[i × bucketSeconds, (i + 1) × bucketSeconds)`), each a ``LatencyHistogram``
///   ``LatencyHistogram/exactEncoding`` (an empty one for a bucket without samples); a
///   sample falls in the bucket of the instant it was recorded, i.e. when the delay
///   ended. Together they hold exactly the samples of `<of>.histogram`, so shard reports
///   merge bucket by bucket like the whole-run histogram.
///
/// Rules: percentiles are the histograms' own (within 0.4 %, like every latency of the
/// report); a bucket without samples has none (a gap in the chart, not a zero); an entry
/// whose histograms do not decode is skipped rather than drawn wrong.
public struct LatencyOverTime: Sendable, Equatable {
    /// The whole-run summary's path, e.g. `latency.createdToDelivered.high`.
    public var of: String
    public var bucketSeconds: Double
    /// Samples per bucket.
    public var counts: [UInt64]
    /// Microseconds per bucket; nil where the bucket has no samples.
    public var p50: [Int64?], p95: [Int64?], p99: [Int64?]

    public init(of: String, bucketSeconds: Double, histograms: [LatencyHistogram]) {
        self.of = of
        self.bucketSeconds = bucketSeconds
        counts = histograms.map(\.count)
        p50 = histograms.map { $0.percentile(50) }
        p95 = histograms.map { $0.percentile(95) }
        p99 = histograms.map { $0.percentile(99) }
    }

    /// The entries of `latencyOverTime` in the report's order; empty when the report
    /// has none (older reports) or its bucket width is not positive.
    public static func read(_ r: ReportValue) -> [LatencyOverTime] {
        guard let bucket = r.lookup("latencyOverTime.bucketSeconds")?.doubleValue, bucket > 0,
              let entries = r.lookup("latencyOverTime.series")?.arrayValue else { return [] }
        return entries.compactMap { entry in
            guard let of = entry.lookup("of")?.stringValue, let encoded = entry.lookup("histograms")?.arrayValue else { return nil }
            // Sparse: a dense histogram holds every bucket of the layout (57 KiB), and a
            // run has hundreds of buckets of time per latency.
            var series = LatencyOverTime(of: of, bucketSeconds: bucket, histograms: [])
            for encoding in encoded {
                guard let h = SparseLatencyHistogram(exactEncoding: encoding) else { return nil }
                series.counts.append(h.total)
                series.p50.append(h.percentile(50))
                series.p95.append(h.percentile(95))
                series.p99.append(h.percentile(99))
            }
            return series.counts.contains { $0 > 0 } ? series : nil
        }
    }

    /// The bucket with the largest p99 (the first of equals) and that p99.
    public var worstP99: (bucket: Int, micros: Int64)? {
        var worst: (bucket: Int, micros: Int64)?
        for (i, v) in p99.enumerated() {
            if let v, v > (worst?.micros ?? -1) { worst = (i, v) }
        }
        return worst
    }
}
