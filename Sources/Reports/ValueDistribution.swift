/// An exactly mergeable distribution of non-negative values (per-device figures such as
/// a device's app energy per day, or per-event figures such as the energy of one
/// background task) as `report.json` writes them: with a fixed number of fraction digits.
///
/// Why not a ``LatencyHistogram``: report figures of this kind are exact order
/// statistics of the values rounded to their written digits, and a log-linear bucket
/// (1/128 of its value wide) is wider than the last written digit. This type keeps
/// every value rounded to the written digits, with its count; that loses nothing the
/// report shows, because rounding is monotone: the k-th smallest rounded value is the
/// rounded k-th smallest value. So `p50`, `p95` and `max` of a merged distribution are
/// exactly those of one distribution of all the values. Its size is the number of
/// distinct written values (at most the number of values, and at most the range over
/// the last digit).
///
/// The mean is kept apart, as the exact sum of every value in units of 10⁻¹² (each value
/// rounded once, the sum in 128 bits): integer addition does not depend on the order,
/// so the mean of a merged distribution is that of one distribution, byte for byte.
///
/// Negative values are recorded as 0 (as ``LatencyHistogram`` does).
public struct ValueDistribution: Sendable, Equatable {
    /// The layout tag written in ``exactEncoding``; decoding refuses any other.
    public static let layoutName = "exact-decimal"
    /// The unit of ``exactEncoding``'s `sum`: 10⁻¹² of the value's unit.
    public static let sumScale = 1e12

    /// Fraction digits of the written figures (and of the kept values).
    public let digits: Int
    /// Distinct values in units of 10^-digits, ascending, and how many values each has.
    private(set) var units: [Int64] = []
    private(set) var counts: [UInt64] = []
    private var sumHigh: UInt64 = 0
    private var sumLow: UInt64 = 0

    /// The distribution of `values`, kept at `digits` fraction digits (0...9).
    /// - Complexity: O(n log n) for n values.
    public init(_ values: [Double], digits: Int) {
        self.digits = Swift.min(Swift.max(digits, 0), 9)
        var rounded: [Int64] = []
        rounded.reserveCapacity(values.count)
        for value in values {
            let v = Swift.max(value, 0)
            rounded.append(Self.units(of: v, digits: self.digits))
            addToSum(Self.sumWords(of: v))
        }
        rounded.sort()
        for u in rounded {
            if units.last == u { counts[counts.count - 1] += 1 } else { units.append(u); counts.append(1) }
        }
    }

    /// An empty distribution kept at `digits` fraction digits (0...9), filled by ``add(_:)``.
    public init(digits: Int) { self.digits = Swift.min(Swift.max(digits, 0), 9) }

    /// Adds one value: after any sequence of adds, the distribution equals the one built
    /// from all the values at once (``init(_:digits:)``), whatever their order, because
    /// it keeps only the distinct written values, their counts and the exact sum. A run
    /// adds its per-event figures (the energy of each task) one at a time and holds a
    /// few hundred distinct values, not every value.
    /// - Complexity: O(log k) for k distinct values; O(k) when the value is a new one.
    public mutating func add(_ value: Double) {
        let v = Swift.max(value, 0)
        let u = Self.units(of: v, digits: digits)
        addToSum(Self.sumWords(of: v))
        var low = 0, high = units.count
        while low < high {
            let mid = (low &+ high) >> 1
            if units[mid] < u { low = mid &+ 1 } else { high = mid }
        }
        if low < units.count, units[low] == u {
            counts[low] &+= 1
            return
        }
        // A new value: one slot more at the end, then the tail moved up by one (a
        // memmove, where `insert(_:at:)` went through the generic `replaceSubrange`).
        let tail = units.count &- low
        units.append(u)
        counts.append(1)
        guard tail > 0 else { return }
        units.withUnsafeMutableBufferPointer { p in
            (p.baseAddress! + low + 1).moveInitialize(from: p.baseAddress! + low, count: tail)
            p[low] = u
        }
        counts.withUnsafeMutableBufferPointer { p in
            (p.baseAddress! + low + 1).moveInitialize(from: p.baseAddress! + low, count: tail)
            p[low] = 1
        }
    }

    /// The number of values.
    public var count: UInt64 { counts.reduce(0, Self.saturatingAdd) }

    /// `a + b`, or `UInt64.max` past it: counts read from untrusted reports never wrap.
    static func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// Adds every value of `other` (kept at the same digits). Exact and order-independent.
    /// - Precondition: `other.digits == digits`.
    /// - Complexity: O(a + b) distinct values.
    public mutating func merge(_ other: ValueDistribution) {
        precondition(other.digits == digits, "distributions of different digits")
        var mergedUnits: [Int64] = [], mergedCounts: [UInt64] = []
        mergedUnits.reserveCapacity(units.count + other.units.count)
        mergedCounts.reserveCapacity(units.count + other.units.count)
        var i = 0, j = 0
        while i < units.count || j < other.units.count {
            if j == other.units.count || (i < units.count && units[i] < other.units[j]) {
                mergedUnits.append(units[i]); mergedCounts.append(counts[i]); i += 1
            } else if i == units.count || other.units[j] < units[i] {
                mergedUnits.append(other.units[j]); mergedCounts.append(other.counts[j]); j += 1
            } else {
                mergedUnits.append(units[i]); mergedCounts.append(Self.saturatingAdd(counts[i], other.counts[j])); i += 1; j += 1
            }
        }
        units = mergedUnits
        counts = mergedCounts
        addToSum((other.sumHigh, other.sumLow))
    }

    /// All of `parts` (kept at the same digits) in one, merged two by two in rounds:
    /// each distinct value is copied about log₂(parts) times, where merging them into one
    /// after another copied the growing whole once per part (16 shards: 8 times the
    /// values). Exact and order-independent, as ``merge(_:)``; nil for no parts.
    /// - Precondition: every part has the same digits.
    /// - Complexity: O(v log k) for k parts of v distinct values in all.
    public static func merged(_ parts: [ValueDistribution]) -> ValueDistribution? {
        var round = parts
        while round.count > 1 {
            var next: [ValueDistribution] = []
            next.reserveCapacity((round.count + 1) / 2)
            var i = 0
            while i + 1 < round.count {
                var pair = round[i]
                pair.merge(round[i + 1])
                next.append(pair)
                i += 2
            }
            if i < round.count { next.append(round[i]) }
            round = next
        }
        return round.first
    }

    /// The nearest-rank quantile (`q` in 0...1) of the written values, nil when empty:
    /// the value of rank `max(1, ceil(q · count))`.
    public func quantile(_ q: Double) -> Double? {
        let n = count
        guard n > 0 else { return nil }
        let r = Swift.max(1, (q * Double(n)).rounded(.up))
        let rank = r >= Double(n) ? n : UInt64(r)  // Double(n) may round up to 2⁶⁴
        var seen: UInt64 = 0
        for (u, c) in zip(units, counts) {
            seen = Self.saturatingAdd(seen, c)
            if seen >= rank { return value(u) }
        }
        return units.last.map(value)
    }

    /// The mean of the values (from the exact sum), nil when empty.
    public var mean: Double? {
        let n = count
        guard n > 0 else { return nil }
        return (Double(sumHigh) * 18_446_744_073_709_551_616.0 + Double(sumLow)) / Self.sumScale / Double(n)
    }

    /// `{mean, p50, p95, max, distribution}` as `report.json` shows a per-device figure
    /// (docs/report.md, "Battery"): the figures at ``digits`` digits (`null` when empty),
    /// and `distribution` the ``exactEncoding`` that `fleetsim merge` reads back.
    public func summary() -> ReportValue {
        [
            "mean": mean.map { .fixed($0, digits) } ?? .null,
            "p50": quantile(0.5).map { .fixed($0, digits) } ?? .null,
            "p95": quantile(0.95).map { .fixed($0, digits) } ?? .null,
            "max": units.last.map { .fixed(value($0), digits) } ?? .null,
            "distribution": exactEncoding,
        ]
    }

    /// Everything needed to rebuild this distribution: `{"layout": "exact-decimal",
    /// "digits", "count", "sum", "values"}` where `values` is a flat array `[v₀, n₀, v₁,
    /// n₁, …]` of the distinct values in units of 10^-digits, ascending, with their
    /// counts, and `sum` the exact sum in units of 10⁻¹² as a decimal string.
    public var exactEncoding: ReportValue {
        var flat: [ReportValue] = []
        flat.reserveCapacity(units.count * 2)
        for (u, c) in zip(units, counts) {
            flat.append(.int(u))
            flat.append(.count(c))
        }
        return [
            "layout": .string(Self.layoutName),
            "digits": .count(digits),
            "count": .count(count),
            "sum": .string(BigUnsigned(high: sumHigh, low: sumLow).decimalString),
            "values": .array(flat),
        ]
    }

    /// Rebuilds a distribution from its ``exactEncoding``; nil unless it is consistent:
    /// the layout, digits in 0...9, strictly ascending non-negative values with positive
    /// counts adding up to `count` (without overflowing `Int64`), and a sum below 2¹²⁸.
    public init?(exactEncoding value: ReportValue) {
        guard let members = value.objectValue,
              members["layout"]?.stringValue == Self.layoutName,
              let digits = members["digits"]?.intValue, (0...9).contains(digits),
              let total = members["count"]?.intValue,
              let sum = members["sum"]?.stringValue.flatMap({ BigUnsigned(decimal: $0)?.words128 }),
              let flat = members["values"]?.arrayValue, flat.count % 2 == 0
        else { return nil }
        self.init(digits: Int(digits))
        var seen: Int64 = 0
        for k in stride(from: 0, to: flat.count, by: 2) {
            guard let u = flat[k].intValue, u >= 0, let c = flat[k + 1].intValue, c > 0,
                  units.last.map({ $0 < u }) ?? true else { return nil }
            units.append(u)
            counts.append(UInt64(c))
            let (next, overflow) = seen.addingReportingOverflow(c)
            guard !overflow else { return nil }
            seen = next
        }
        guard seen == total else { return nil }
        sumHigh = sum.high
        sumLow = sum.low
    }

    // MARK: Rounding

    private static let tenPowers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    private func value(_ units: Int64) -> Double { Double(units) / Self.tenPowers[digits] }

    /// `v` (≥ 0) in units of 10^-digits, rounded as ``FixedDecimal`` writes it: the exact
    /// value, ties away from zero. The product in floating point decides unless it lies
    /// within a few ulps of a tie, where the exact decimal text decides.
    static func units(of v: Double, digits: Int) -> Int64 {
        let scaled = v * tenPowers[digits]
        // Without the library's floor and round (a run adds a value per event): for
        // 0 ≤ scaled < 9e18 the truncation is the floor and the fraction is exact, and
        // away from a tie, rounding adds 1 when the fraction is above one half.
        if scaled >= 0, scaled < 9e18 {
            let whole = Int64(scaled)
            let fraction = scaled - Double(whole)
            if abs(fraction - 0.5) > 4 * scaled.ulp { return fraction > 0.5 ? whole &+ 1 : whole }
        }
        let text = FixedDecimal.format(v, digits: digits) ?? "0"
        return Int64(text.filter { $0 != "." }) ?? .max
    }

    /// `v` (≥ 0) in units of 10⁻¹², rounded once, as 128-bit words.
    static func sumWords(of v: Double) -> (UInt64, UInt64) {
        // Below 2⁶³ (values under 9 million): one word, rounded half away from zero
        // without the library's round (truncation is the floor, the fraction exact).
        let product = v * sumScale
        if product >= 0, product < 9.2e18 {
            let whole = UInt64(product)
            return (0, product - Double(whole) >= 0.5 ? whole &+ 1 : whole)
        }
        let scaled = product.rounded()
        guard scaled < 3.4e38 else { return (.max, .max) }
        let high = (scaled / 18_446_744_073_709_551_616.0).rounded(.down)
        let low = scaled - high * 18_446_744_073_709_551_616.0
        return (UInt64(high), low >= 18_446_744_073_709_551_616.0 ? .max : UInt64(low))
    }

    /// Adds a 128-bit addend to the sum, saturating at 2¹²⁸ − 1.
    private mutating func addToSum(_ addend: (UInt64, UInt64)) {
        let (lo, carry) = sumLow.addingReportingOverflow(addend.1)
        let (hi1, overflow1) = sumHigh.addingReportingOverflow(addend.0)
        let (hi, overflow2) = hi1.addingReportingOverflow(carry ? 1 : 0)
        let saturated = overflow1 || overflow2
        sumLow = saturated ? .max : lo
        sumHigh = saturated ? .max : hi
    }
}
