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
/// - Recording costs about what the whole-run histogram's does: a run records each delay
///   when it ends, so samples come in time order; the bucket being recorded keeps a full
///   array of counts (57 KiB, one per timeline) and the list of the indices it touched,
///   and when a sample falls in another bucket, the open one closes into a sparse copy
///   (its non-empty buckets only: a few hundred for an hour of a week's delays) and its
///   touched counts go back to zero. Samples in any order give the same buckets, only
///   more slowly.
public struct LatencyTimeline: Sendable {
    /// The width of one bucket.
    public let bucketSeconds: Int64
    let bucketMicroseconds: Int64
    /// The closed buckets of time (the open one holds what it had when it last closed).
    var slots: [Slot]
    /// The open bucket: its index, its counts by histogram bucket (zero but where touched),
    /// the indices it touched (in the order first touched), and its exact count, extremes
    /// and sum (in a `Slot` whose own lists stay empty).
    var openSlot = 0
    var openCounts = [UInt64](repeating: 0, count: LatencyHistogram.bucketCount)
    var touched: [Int32] = []
    var open = Slot()

    /// A closed bucket of time: its non-empty histogram buckets (indices ascending, with
    /// their counts) and the exact count, extremes and sum.
    struct Slot: Sendable {
        var indices: [Int32] = [], counts: [UInt64] = []
        var total: UInt64 = 0
        var minValue = Int64.max, maxValue = Int64.min
        var sumHigh: UInt64 = 0, sumLow: UInt64 = 0

        var histogram: LatencyHistogram {
            total == 0 ? LatencyHistogram()
                : LatencyHistogram(indices: indices, counts: counts, total: total, min: minValue, max: maxValue, sumHigh: sumHigh, sumLow: sumLow)
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
    /// - Complexity: O(1) while samples stay in one bucket of time; moving to another
    ///   bucket closes the open one, O(k log k) for its k distinct histogram buckets.
    public mutating func record(_ value: Int64, at: Int64) {
        let i = Int(Swift.min(Swift.max(at, 0) / bucketMicroseconds, Int64(slots.count - 1)))
        if i != openSlot { move(to: i) }
        let v = Swift.max(value, 0)
        let index = LatencyHistogram.bucketIndex(of: v)
        if openCounts[index] == 0 { touched.append(Int32(index)) }
        openCounts[index] = LatencyHistogram.saturatingAdd(openCounts[index], 1)
        open.total = LatencyHistogram.saturatingAdd(open.total, 1)
        open.minValue = Swift.min(open.minValue, v)
        open.maxValue = Swift.max(open.maxValue, v)
        LatencyHistogram.saturatingAdd128(&open.sumHigh, &open.sumLow, high: 0, low: UInt64(bitPattern: v))
    }

    /// Closes the open bucket into its slot (its touched counts sorted, then zeroed) and
    /// opens bucket `i` with what it held.
    mutating func move(to i: Int) {
        if open.total > 0 {
            touched.sort()
            open.indices = touched
            open.counts = touched.map { openCounts[Int($0)] }
            for index in touched { openCounts[Int(index)] = 0 }
            slots[openSlot] = open
        }
        touched.removeAll(keepingCapacity: true)
        open = Slot()
        openSlot = i
        let held = slots[i]
        guard held.total > 0 else { return }
        for (index, count) in zip(held.indices, held.counts) { openCounts[Int(index)] = count }
        touched = held.indices
        open.total = held.total
        open.minValue = held.minValue
        open.maxValue = held.maxValue
        open.sumHigh = held.sumHigh
        open.sumLow = held.sumLow
    }

    /// The number of samples recorded.
    public var count: UInt64 {
        var n = open.total
        for i in slots.indices where i != openSlot { n = LatencyHistogram.saturatingAdd(n, slots[i].total) }
        return n
    }

    /// The histogram of bucket `i`.
    public func histogram(_ i: Int) -> LatencyHistogram {
        guard i == openSlot else { return slots[i].histogram }
        var current = open
        current.indices = touched
        current.counts = touched.map { openCounts[Int($0)] }
        return current.histogram
    }

    /// Bucket `i` as its encoding lists it, without a dense array of counts.
    func sparse(_ i: Int) -> SparseLatencyHistogram {
        var slot = i == openSlot ? open : slots[i]
        if i == openSlot {
            slot.indices = touched.sorted()
            slot.counts = slot.indices.map { openCounts[Int($0)] }
        }
        var h = SparseLatencyHistogram()
        guard slot.total > 0 else { return h }
        h.lowers = slot.indices.map { LatencyHistogram.bucketBounds(Int($0)).lower }
        h.counts = slot.counts
        h.total = slot.total
        h.minValue = slot.minValue
        h.maxValue = slot.maxValue
        h.sumHigh = slot.sumHigh
        h.sumLow = slot.sumLow
        return h
    }

    /// The buckets' histograms as `latencyOverTime` writes them: one
    /// ``LatencyHistogram/exactEncoding`` per bucket, an empty one for a bucket without
    /// samples. Written from the sparse buckets: a dense histogram per bucket zeroed
    /// 57 KiB each.
    public var encodings: ReportValue { .array(slots.indices.map { sparse($0).exactEncoding }) }

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
