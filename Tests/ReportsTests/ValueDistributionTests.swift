import Testing
import SimKernel
@testable import Reports

/// Per-device figures: the distribution's figures are the exact order statistics of
/// the values as written, and merging any split of the values gives the distribution of
/// all of them, byte for byte.
@Suite struct ValueDistributionTests {
    /// Values like the battery figures: mostly 0–25 with many repeats at the written digits.
    static func values(_ count: Int, seed: UInt64) -> [Double] {
        var rng = RandomStream(splitMixSeed: seed)
        return (0..<count).map { _ in
            let u = Double(rng.next() % 1_000_000) / 1_000_000
            return rng.next() % 5 == 0 ? 0 : u * u * 25
        }
    }

    /// Nearest rank of the sorted raw values, as the report computed it before.
    static func exactQuantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        let rank = max(1, Int((q * Double(sorted.count)).rounded(.up)))
        return sorted[min(rank, sorted.count) - 1]
    }

    static func text(_ v: ReportValue?) -> String { v.map(JSONWriter.encode) ?? "missing" }

    @Test func figuresAreTheWrittenOrderStatisticsOfTheRawValues() {
        for (seed, digits) in [(1, 4), (2, 5), (3, 3), (4, 0)] as [(UInt64, Int)] {
            let raw = Self.values(2_000 + Int(seed) * 37, seed: seed)
            let summary = ValueDistribution(raw, digits: digits).summary()
            for (key, q) in [("p50", 0.5), ("p95", 0.95), ("max", 1.0)] {
                #expect(Self.text(summary.lookup(key)) == JSONWriter.encode(.fixed(Self.exactQuantile(raw, q), digits)), "\(key) at \(digits) digits")
            }
            let mean = raw.sorted().reduce(0, +) / Double(raw.count)
            #expect(abs((summary.lookup("mean")?.doubleValue ?? .nan) - mean) <= 0.5 / pow10(digits) + 1e-12)
        }
    }

    /// Rounding of each value matches FixedDecimal's (exact value, ties away from zero),
    /// also on values whose product by 10ⁿ lands on or next to a tie.
    @Test func roundingIsFixedDecimals() {
        var probes: [Double] = [0, 0.00005, 0.00015, 0.00025, 1.00005, 2.5, 0.125, 1e-9, 12_345.67895, 86_400]
        for k in 0..<2_000 { probes.append((Double(k) + 0.5) / 10_000); probes.append(Double(k) * 0.000_123_7) }
        for v in probes {
            for digits in [0, 3, 4, 5] {
                let units = ValueDistribution.units(of: v, digits: digits)
                let written = FixedDecimal.format(v, digits: digits) ?? ""
                #expect(String(units) == String(written.filter { $0 != "." }.drop { $0 == "0" }).ifEmpty("0"), "\(v) at \(digits)")
            }
        }
    }

    /// Each value's share of the exact sum is the value in units of 10⁻¹² rounded half
    /// away from zero (the library's round), as two 64-bit words: on ties, next to them,
    /// and on both sides of 2⁵³, 2⁶³ and 2⁶⁴ units.
    @Test func sumWordsAreTheValueRoundedInPicoUnits() {
        var probes: [Double] = [0, 1e-12, 0.5e-12, 1.5e-12, 2.5e-12, 0.4999999e-12, 0.915736, 12_345.678_901_234_5,
                                9_007.199_254_740_992, 9_007.199_254_740_993, 9.2e6, 9.3e6, 1.8e7, 1.9e7]
        for k in 0 ..< 2_000 { probes.append((Double(k) + 0.5) * 1e-12); probes.append(Double(k) * 0.000_123_7) }
        for v in probes {
            let scaled = (v * ValueDistribution.sumScale).rounded()
            let high = (scaled / 18_446_744_073_709_551_616.0).rounded(.down)
            let low = scaled - high * 18_446_744_073_709_551_616.0
            let words = ValueDistribution.sumWords(of: v)
            #expect(words.0 == UInt64(high) && words.1 == UInt64(low), "\(v)")
        }
    }

    @Test func anySplitMergesToTheWholeByteForByte() throws {
        let raw = Self.values(3_001, seed: 7)
        let whole = ValueDistribution(raw, digits: 4)
        for parts in [2, 3, 7] {
            var merged = ValueDistribution([], digits: 4)
            for p in (0..<parts).reversed() {
                merged.merge(ValueDistribution(stride(from: p, to: raw.count, by: parts).map { raw[$0] }, digits: 4))
            }
            #expect(merged == whole)
            #expect(JSONWriter.encode(merged.summary()) == JSONWriter.encode(whole.summary()))
        }
        let decoded = try #require(ValueDistribution(exactEncoding: whole.exactEncoding))
        #expect(decoded == whole)
    }

    /// `merged` (two by two, in rounds) gives the whole for any number of parts, odd
    /// counts and empty parts included; no parts give nil.
    @Test func mergedInRoundsIsTheWhole() {
        let raw = Self.values(2_003, seed: 11)
        let whole = ValueDistribution(raw, digits: 4)
        for parts in [1, 2, 5, 16] {
            var split = (0..<parts).map { p in ValueDistribution(stride(from: p, to: raw.count, by: parts).map { raw[$0] }, digits: 4) }
            split.append(ValueDistribution(digits: 4))
            #expect(ValueDistribution.merged(split) == whole, "\(parts) parts")
        }
        #expect(ValueDistribution.merged([]) == nil)
    }

    /// Values added one at a time, in any order, give the distribution of all of them:
    /// new values below, between and above the kept ones, repeats, negatives (as 0).
    @Test func addingOneAtATimeIsBuildingFromAllTheValues() {
        let raw = Self.values(2_500, seed: 11) + [-1, 0, 25, 25, 1e-9]
        for digits in [0, 4, 5] {
            let whole = ValueDistribution(raw, digits: digits)
            for order in [raw, raw.reversed(), raw.sorted(), raw.sorted().reversed()] {
                var added = ValueDistribution(digits: digits)
                for v in order { added.add(v) }
                #expect(added == whole, "\(digits) digits")
                #expect(JSONWriter.encode(added.summary()) == JSONWriter.encode(whole.summary()))
            }
        }
        var one = ValueDistribution(digits: 4)
        #expect(one == ValueDistribution([], digits: 4))
        one.add(0.91573)
        #expect(one == ValueDistribution([0.91573], digits: 4))
        #expect(ValueDistribution(digits: 12).digits == 9)
    }

    @Test func emptyHasNullFigures() {
        let empty = ValueDistribution([], digits: 3).summary()
        for key in ["mean", "p50", "p95", "max"] { #expect(empty.lookup(key) == .null) }
        #expect(ValueDistribution(exactEncoding: empty.lookup("distribution")!) == ValueDistribution([], digits: 3))
    }

    @Test func malformedEncodingsAreRefused() {
        let good = ValueDistribution([1, 2, 2, 3], digits: 1).exactEncoding
        func with(_ key: String, _ value: ReportValue) -> ReportValue {
            var members = good.objectValue!
            members[key] = value
            return .object(members)
        }
        #expect(ValueDistribution(exactEncoding: good) != nil)
        #expect(ValueDistribution(exactEncoding: with("layout", .string("log-linear-128"))) == nil)
        #expect(ValueDistribution(exactEncoding: with("count", .int(5))) == nil)
        #expect(ValueDistribution(exactEncoding: with("values", .array([.int(20), .int(2), .int(10), .int(1)]))) == nil)
        #expect(ValueDistribution(exactEncoding: with("values", .array([.int(10), .int(0), .int(20), .int(4)]))) == nil)
        #expect(ValueDistribution(exactEncoding: with("digits", .int(12))) == nil)
        #expect(ValueDistribution(exactEncoding: with("sum", .string("-1"))) == nil)
    }
}

private func pow10(_ n: Int) -> Double { (0..<n).reduce(1) { a, _ in a * 10 } }

private extension String {
    func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
