/// One latency's samples per bucket of simulated time: what `report.json`'s
/// `latencyOverTime` holds for it, next to the whole-run summary (``LatencyOverTime``
/// reads it back for report.html's chart).
///
/// Rules:
/// - Bucket `i` covers `[i × bucketSeconds, (i + 1) × bucketSeconds)` from the run's
///   start; the run has `⌈duration / bucketSeconds⌉` buckets (at least one). A sample
///   falls in the bucket of the instant it is recorded (when the delay ended); one at or
///   after the end (which a run never records) counts in the last bucket.
/// - Each bucket is a ``LatencyHistogram`` of the same layout, so the buckets together
///   hold exactly the samples of the whole-run histogram recorded beside them, and shard
///   reports merge bucket by bucket (`fleetsim merge`).
/// - Memory is sparse: a bucket keeps only its non-empty histogram buckets (a few
///   hundred for a week's hour of delays), not the 57 KiB of a full histogram; the full
///   histograms are built one at a time when the report is written.
public struct LatencyTimeline: Sendable, Equatable {
    /// The width of one bucket.
    public let bucketSeconds: Int64
    let bucketMicroseconds: Int64
    var slots: [Slot]

    /// One bucket of time: the counts of its non-empty histogram buckets by index (an
    /// unordered map: only sums of counts are read from it, never its order), and the
    /// exact count, extremes and sum.
    struct Slot: Sendable, Equatable {
        var counts: [Int: UInt64] = [:]
        var total: UInt64 = 0
        var minValue = Int64.max, maxValue = Int64.min
        var sumHigh: UInt64 = 0, sumLow: UInt64 = 0

        /// One non-negative sample; counts and the sum saturate as the histogram's do.
        mutating func record(_ v: Int64) {
            let index = LatencyHistogram.bucketIndex(of: v)
            counts[index] = LatencyHistogram.saturatingAdd(counts[index, default: 0], 1)
            total = LatencyHistogram.saturatingAdd(total, 1)
            minValue = Swift.min(minValue, v)
            maxValue = Swift.max(maxValue, v)
            LatencyHistogram.saturatingAdd128(&sumHigh, &sumLow, high: 0, low: UInt64(bitPattern: v))
        }
    }

    /// - Parameters:
    ///   - bucketSeconds: the width of a bucket (at least 1).
    ///   - durationMicroseconds: the run's length, which sets the number of buckets.
    public init(bucketSeconds: Int64, durationMicroseconds: Int64) {
        let width = Swift.max(bucketSeconds, 1)
        self.bucketSeconds = width
        bucketMicroseconds = width * 1_000_000
        let count = Swift.max(1, (Swift.max(durationMicroseconds, 0) + bucketMicroseconds - 1) / bucketMicroseconds)
        slots = Array(repeating: Slot(), count: Int(count))
    }

    /// Records one sample (microseconds; negative counts as 0, as in ``LatencyHistogram``)
    /// that ended `at` microseconds after the run's start.
    /// - Complexity: O(1) on average; allocates only when its bucket first sees a new
    ///   histogram bucket.
    public mutating func record(_ value: Int64, at: Int64) {
        let i = Swift.min(Swift.max(at, 0) / bucketMicroseconds, Int64(slots.count - 1))
        slots[Int(i)].record(Swift.max(value, 0))
    }

    /// The number of samples recorded.
    public var count: UInt64 { slots.reduce(0) { LatencyHistogram.saturatingAdd($0, $1.total) } }

    /// The histogram of bucket `i`.
    public func histogram(_ i: Int) -> LatencyHistogram {
        let slot = slots[i]
        return slot.total == 0 ? LatencyHistogram()
            : LatencyHistogram(counts: slot.counts, total: slot.total, min: slot.minValue, max: slot.maxValue, sumHigh: slot.sumHigh, sumLow: slot.sumLow)
    }

    /// The buckets' histograms as `latencyOverTime` writes them: one
    /// ``LatencyHistogram/exactEncoding`` per bucket, an empty one for a bucket without samples.
    public var encodings: ReportValue { .array(slots.indices.map { histogram($0).exactEncoding }) }

    /// `latencyOverTime` of a report: `bucketSeconds` and one series per latency that has
    /// samples, sorted by `of` (the whole-run summary's dotted path, e.g.
    /// `latency.stepsRecordedToSynced`). Every timeline must have `bucketSeconds`.
    public static func section(_ timelines: [(of: String, timeline: LatencyTimeline)], bucketSeconds: Int64) -> ReportValue {
        let series = timelines.filter { $0.timeline.count > 0 }.sorted { $0.of < $1.of }
        precondition(series.allSatisfy { $0.timeline.bucketSeconds == bucketSeconds }, "one bucket width for every latency over time")
        return .object(["bucketSeconds": .int(bucketSeconds),
                        "series": .array(series.map { .object(["of": .string($0.of), "histograms": $0.timeline.encodings]) })])
    }
}
