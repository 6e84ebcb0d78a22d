/// A ``LatencyHistogram`` as its exact encoding lists it: only the non-empty buckets,
/// ascending. `fleetsim merge` reads one histogram per bucket of time per latency per
/// report (`latencyOverTime.series`: thousands in a shard's day), report.md and
/// report.html read them for their charts, and a run writes them; a dense
/// ``LatencyHistogram`` zeroes and scans its 7,296 buckets (57 KiB) for each, which cost
/// most of a 16-shard merge (docs/scale.md, "How fast merge is"). This one costs what its
/// encoding holds.
///
/// Rules: its ``init(exactEncoding:)`` is the one check of the encoding, which
/// ``LatencyHistogram/init(exactEncoding:)`` reads through, and ``merged(_:)`` writes the encoding of the dense histograms merged, byte
/// for byte: buckets summed (saturating), count summed (saturating), the least `min`,
/// the largest `max`, the 128-bit sum summed (saturating). SparseLatencyHistogramTests
/// checks both against the dense type.
struct SparseLatencyHistogram: Equatable {
    /// Lower bounds of the non-empty buckets, ascending, and their counts (all above 0).
    var lowers: [Int64] = []
    var counts: [UInt64] = []
    var total: UInt64 = 0
    /// The extremes; meaningful only when `total > 0`.
    var minValue: Int64 = .max
    var maxValue: Int64 = .min
    var sumHigh: UInt64 = 0
    var sumLow: UInt64 = 0

    init() {}

    /// The histogram of an ``LatencyHistogram/exactEncoding``; nil unless it is
    /// consistent (the dense type's rules: the right layout, ascending valid bucket lower
    /// bounds with positive counts that add up to `count`, `min` in the first bucket and
    /// `max` in the last, a sum below 2¹²⁸).
    /// - Complexity: O(b), b = the non-empty buckets listed.
    init?(exactEncoding value: ReportValue) {
        guard let members = value.objectValue,
              members["layout"]?.stringValue == LatencyHistogram.layoutName,
              let declared = members["count"].flatMap(LatencyHistogram.decodeCount),
              let sumText = members["sum"]?.stringValue,
              let sum = BigUnsigned(decimal: sumText)?.words128,
              let flat = members["buckets"]?.arrayValue, flat.count % 2 == 0
        else { return nil }
        lowers.reserveCapacity(flat.count / 2)
        counts.reserveCapacity(flat.count / 2)
        var previous = -1
        var k = 0
        while k < flat.count {
            guard let lower = flat[k].intValue, lower >= 0,
                  let n = LatencyHistogram.decodeCount(flat[k + 1]), n > 0 else { return nil }
            let index = LatencyHistogram.bucketIndex(of: lower)
            guard index > previous, LatencyHistogram.bucketBounds(index).lower == lower else { return nil }
            lowers.append(lower)
            counts.append(n)
            total = LatencyHistogram.saturatingAdd(total, n)
            previous = index
            k += 2
        }
        guard total == declared else { return nil }
        if total == 0 {
            guard members["min"] == .null, members["max"] == .null, sum.high == 0, sum.low == 0 else { return nil }
            return
        }
        guard let minimum = members["min"]?.intValue, let maximum = members["max"]?.intValue,
              minimum >= 0, minimum <= maximum,
              LatencyHistogram.bucketIndex(of: lowers[0]) == LatencyHistogram.bucketIndex(of: minimum),
              LatencyHistogram.bucketIndex(of: maximum) == previous
        else { return nil }
        minValue = minimum
        maxValue = maximum
        sumHigh = sum.high
        sumLow = sum.low
    }

    /// All of `parts` in one: merged two by two, in rounds, so that each bucket is
    /// copied about log₂(parts) times, not once per part.
    /// - Complexity: O(b log k) for k parts of b listed buckets in all.
    static func merged(_ parts: [SparseLatencyHistogram]) -> SparseLatencyHistogram {
        var round = parts.filter { $0.total > 0 }
        guard !round.isEmpty else { return SparseLatencyHistogram() }
        while round.count > 1 {
            var next: [SparseLatencyHistogram] = []
            next.reserveCapacity((round.count + 1) / 2)
            var i = 0
            while i + 1 < round.count { next.append(pair(round[i], round[i + 1])); i += 2 }
            if i < round.count { next.append(round[i]) }
            round = next
        }
        return round[0]
    }

    /// Two non-empty histograms merged: their bucket lists merged in one pass.
    static func pair(_ a: SparseLatencyHistogram, _ b: SparseLatencyHistogram) -> SparseLatencyHistogram {
        var out = SparseLatencyHistogram()
        out.lowers.reserveCapacity(a.lowers.count + b.lowers.count)
        out.counts.reserveCapacity(a.lowers.count + b.lowers.count)
        var i = 0, j = 0
        while i < a.lowers.count || j < b.lowers.count {
            if j == b.lowers.count || (i < a.lowers.count && a.lowers[i] < b.lowers[j]) {
                out.lowers.append(a.lowers[i]); out.counts.append(a.counts[i]); i += 1
            } else if i == a.lowers.count || b.lowers[j] < a.lowers[i] {
                out.lowers.append(b.lowers[j]); out.counts.append(b.counts[j]); j += 1
            } else {
                out.lowers.append(a.lowers[i]); out.counts.append(LatencyHistogram.saturatingAdd(a.counts[i], b.counts[j])); i += 1; j += 1
            }
        }
        out.total = LatencyHistogram.saturatingAdd(a.total, b.total)
        out.minValue = Swift.min(a.minValue, b.minValue)
        out.maxValue = Swift.max(a.maxValue, b.maxValue)
        out.sumHigh = a.sumHigh
        out.sumLow = a.sumLow
        LatencyHistogram.saturatingAdd128(&out.sumHigh, &out.sumLow, high: b.sumHigh, low: b.sumLow)
        return out
    }

    /// ``LatencyHistogram/percentile(_:)`` of the same histogram: the same rank and the
    /// same bucket's clamped midpoint, found among the listed buckets only.
    /// - Complexity: O(b), b = the non-empty buckets.
    func percentile(_ p: Double) -> Int64? {
        guard total > 0, !p.isNaN else { return nil }
        if p >= 100 { return maxValue }
        let rank = LatencyHistogram.rank(p, of: total)
        var seen: UInt64 = 0
        for (lower, n) in zip(lowers, counts) {
            seen = LatencyHistogram.saturatingAdd(seen, n)
            if seen >= rank { return LatencyHistogram.midpoint(LatencyHistogram.bucketIndex(of: lower), min: minValue, max: maxValue) }
        }
        return maxValue  // unreachable: the counts sum to `total`
    }

    /// ``LatencyHistogram/exactEncoding`` of the same histogram, byte for byte.
    var exactEncoding: ReportValue {
        var flat: [ReportValue] = []
        flat.reserveCapacity(lowers.count * 2)
        for (lower, n) in zip(lowers, counts) {
            flat.append(.int(lower))
            flat.append(LatencyHistogram.encodeCount(n))
        }
        return .object([
            "layout": .string(LatencyHistogram.layoutName),
            "count": LatencyHistogram.encodeCount(total),
            "min": total > 0 ? .int(minValue) : .null,
            "max": total > 0 ? .int(maxValue) : .null,
            "sum": .string(BigUnsigned(high: sumHigh, low: sumLow).decimalString),
            "buckets": .array(flat),
        ])
    }
}
