/// Report forms of a ``LatencyHistogram``: the percentile summary that `report.json`
/// shows under `latency.<name>`, which carries a lossless encoding that `fleetsim merge`
/// can read back to merge shard reports exactly.
extension LatencyHistogram {
    /// The layout tag written in ``exactEncoding``; decoding refuses any other layout.
    public static let layoutName = "log-linear-128"

    /// `{count, p50, p90, p95, p99, max, histogram}` as `report.json` shows a latency
    /// (docs/report.md, "Latencies"): times in seconds (6 digits), percentiles and `max`
    /// `null` when the histogram is empty, and `histogram` the ``exactEncoding`` (bucket
    /// lower bounds and `min`/`max`/`sum` in microseconds), so that reports of shards or
    /// seeds merge exactly and their percentiles are recomputed from the merged buckets.
    /// - Complexity: O(b), b = the number of buckets between min and max.
    public func latencySummary() -> ReportValue {
        .object([
            "histogram": exactEncoding,
            "count": .count(count),
            "p50": .seconds(percentile(50)),
            "p90": .seconds(percentile(90)),
            "p95": .seconds(percentile(95)),
            "p99": .seconds(percentile(99)),
            "max": .seconds(max),
        ])
    }

    /// Everything needed to rebuild this histogram exactly:
    /// `{"layout": "log-linear-128", "count", "min", "max", "sum", "buckets"}` where
    /// `sum` is the exact 128-bit sum as a decimal string, `buckets` a flat array
    /// `[lowerBound₀, count₀, lowerBound₁, count₁, …]` of the non-empty buckets in
    /// ascending order, and `min`/`max` are `null` when empty. Counts above `Int64.max`
    /// are written as decimal strings.
    /// - Complexity: O(b), b = the number of buckets between min and max.
    public var exactEncoding: ReportValue {
        var flat: [ReportValue] = []
        for bucket in buckets() {
            flat.append(.int(bucket.lowerBound))
            flat.append(Self.encodeCount(bucket.count))
        }
        return .object([
            "layout": .string(Self.layoutName),
            "count": Self.encodeCount(count),
            "min": min.map(ReportValue.int) ?? .null,
            "max": max.map(ReportValue.int) ?? .null,
            "sum": .string(BigUnsigned(high: sumHigh, low: sumLow).decimalString),
            "buckets": .array(flat),
        ])
    }

    /// Rebuilds a histogram from its ``exactEncoding``; nil unless the encoding is
    /// consistent: the right layout, ascending valid bucket lower bounds with positive
    /// counts that add up to `count`, `min` in the first bucket and `max` in the last,
    /// and a sum below 2¹²⁸.
    /// - Complexity: O(``bucketCount``).
    public init?(exactEncoding value: ReportValue) {
        // One parser of the encoding for both shapes: the sparse one checks it.
        guard let sparse = SparseLatencyHistogram(exactEncoding: value) else { return nil }
        self.init()
        for (lower, n) in zip(sparse.lowers, sparse.counts) { counts[Self.bucketIndex(of: lower)] = n }
        total = sparse.total
        guard total > 0 else { return }
        minValue = sparse.minValue
        maxValue = sparse.maxValue
        sumHigh = sparse.sumHigh
        sumLow = sparse.sumLow
    }

    static func encodeCount(_ n: UInt64) -> ReportValue {
        n <= UInt64(Int64.max) ? .int(Int64(n)) : .string(String(n))
    }

    static func decodeCount(_ value: ReportValue) -> UInt64? {
        switch value {
        case .int(let i): return i >= 0 ? UInt64(i) : nil
        case .string(let s): return s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? UInt64(s) : nil
        default: return nil
        }
    }
}
