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
        guard let members = value.objectValue,
              members["layout"]?.stringValue == Self.layoutName,
              let total = members["count"].flatMap(Self.decodeCount),
              let sumText = members["sum"]?.stringValue,
              let sum = BigUnsigned(decimal: sumText)?.words128,
              let flat = members["buckets"]?.arrayValue, flat.count % 2 == 0
        else { return nil }
        self.init()
        var previous = -1
        var pairs = flat[...]
        while let lowerValue = pairs.popFirst(), let countValue = pairs.popFirst() {
            guard let lower = lowerValue.intValue, lower >= 0,
                  let bucketCount = Self.decodeCount(countValue), bucketCount > 0
            else { return nil }
            let index = Self.bucketIndex(of: lower)
            guard index > previous, Self.bucketBounds(index).lower == lower else { return nil }
            counts[index] = bucketCount
            self.total = Self.saturatingAdd(self.total, bucketCount)
            previous = index
        }
        guard self.total == total else { return nil }
        if total == 0 {
            guard members["min"] == .null, members["max"] == .null, sum.high == 0, sum.low == 0 else { return nil }
            return
        }
        guard let minimum = members["min"]?.intValue, let maximum = members["max"]?.intValue,
              minimum >= 0, minimum <= maximum,
              counts.firstIndex(where: { $0 > 0 }) == Self.bucketIndex(of: minimum),
              Self.bucketIndex(of: maximum) == previous
        else { return nil }
        minValue = minimum
        maxValue = maximum
        sumHigh = sum.high
        sumLow = sum.low
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
