import Foundation
import Testing
@testable import FleetSimCLI
import Reports

@Suite struct StatisticsTests {
    /// Closed forms: ν = 1 is the Cauchy distribution, ν = 2 has F(t) = ½ + t / (2√(2 + t²)).
    @Test func cdfMatchesClosedForms() {
        #expect(abs(StudentT.cdf(1, degreesOfFreedom: 1) - 0.75) < 1e-12)
        #expect(abs(StudentT.cdf(-1, degreesOfFreedom: 1) - 0.25) < 1e-12)
        for t in [-3.0, -0.5, 0, 0.7, 2.5, 40] {
            let exact = 0.5 + t / (2 * (2 + t * t).squareRoot())
            #expect(abs(StudentT.cdf(t, degreesOfFreedom: 2) - exact) < 1e-12, "t = \(t)")
        }
    }

    /// Table values of t(0.975, ν) (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.2).
    @Test(arguments: [(1.0, 12.706), (2.0, 4.303), (9.0, 2.262), (19.0, 2.093), (100.0, 1.984), (1e7, 1.960)])
    func quantileMatchesTables(_ nu: Double, _ table: Double) {
        #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: nu) - table) < 0.0005, "ν = \(nu)")
        #expect(abs(StudentT.quantile(0.025, degreesOfFreedom: nu) + table) < 0.0005, "ν = \(nu)")
    }

    @Test func confidenceInterval() throws {
        // mean 2, s = 1, n = 3: half-width t(0.975, 2) / √3 = 4.302653 / 1.732051.
        let ci = try #require(Statistics.confidenceInterval95([1, 2, 3]))
        #expect(abs(ci.high - 2 - 2.484138) < 1e-5)
        #expect(abs(ci.low - 2 + 2.484138) < 1e-5)
        #expect(Statistics.confidenceInterval95([5]) == nil)
        let flat = try #require(Statistics.confidenceInterval95([4, 4, 4]))
        #expect(flat.low == 4 && flat.high == 4)
    }

    @Test func welchEdgeCases() throws {
        #expect(try #require(Statistics.welchGreater(base: [1, 2, 3], new: [1, 2, 3])).p == 0.5)
        #expect(try #require(Statistics.welchGreater(base: [0, 0], new: [0, 0])).p == 1)
        #expect(try #require(Statistics.welchGreater(base: [0, 0], new: [1, 1])).p == 0)
        #expect(try #require(Statistics.welchGreater(base: [1, 1], new: [0, 0])).p == 1)
        #expect(Statistics.welchGreater(base: [1], new: [1, 2]) == nil)
        // Welch–Satterthwaite: equal variances and sizes give ν = 2n − 2.
        let r = try #require(Statistics.welchGreater(base: [1, 2, 3, 4], new: [2, 3, 4, 5]))
        #expect(abs(r.degreesOfFreedom - 6) < 1e-12)
        #expect(abs(r.t - 1 / (2 * 1.6666666666666667 / 4).squareRoot()) < 1e-12)
    }

    /// The upper tail computed directly, not as `1 − cdf`: reference values from
    /// `½ I_{ν/(ν+t²)}(ν/2, ½)` in 40-digit arithmetic (mpmath `betainc`, checked against
    /// a quadrature of the density). At t = 40 `1 − cdf` is exactly 0.
    @Test(arguments: [(12.0, 38.0, 8.5256200014225840053e-15), (40.0, 38.0, 5.7138013340806538e-33), (3.0, 10.0, 0.0066718275112847886)])
    func upperTailIsAccurateFarOut(_ t: Double, _ nu: Double, _ reference: Double) {
        let tail = StudentT.upperTail(t, degreesOfFreedom: nu)
        #expect(abs(tail - reference) / reference < 1e-9, "t = \(t), ν = \(nu): \(tail)")
        #expect(abs(StudentT.upperTail(-t, degreesOfFreedom: nu) - (1 - reference)) < 1e-15)
        #expect(StudentT.upperTail(0, degreesOfFreedom: nu) == 0.5)
    }

    /// Cohen's d by hand: base 1, 2, 3 and new 3, 4, 5 have s = 1 each, so d = 2 / 1.
    @Test func effectSize() throws {
        #expect(try #require(Statistics.effectSize(base: [1, 2, 3], new: [3, 4, 5])) == 2)
        #expect(try #require(Statistics.effectSize(base: [3, 4, 5], new: [1, 2, 3])) == 2)
        #expect(try #require(Statistics.effectSize(base: [0, 0], new: [1, 1])) == .infinity)
        #expect(try #require(Statistics.effectSize(base: [1, 1], new: [1, 1])) == 0)
        #expect(Statistics.effectSize(base: [1], new: [1, 2]) == nil)
    }

    /// A deterministic normal sample (SplitMix64 and Box–Muller).
    struct Normal {
        var state: UInt64
        mutating func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (Double((z ^ (z >> 31)) >> 11) + 0.5) / 9_007_199_254_740_992
        }
        mutating func next(mean: Double, sd: Double) -> Double {
            mean + sd * (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
        }
        mutating func sample(_ n: Int, mean: Double = 100, sd: Double = 10) -> [Double] {
            (0..<n).map { _ in next(mean: mean, sd: sd) }
        }
    }

    /// Calibration: with equal means, p < 0.05 in about 5 % of 4,000 tests (n = 20 each,
    /// unequal variances); a shift of one standard deviation is found almost always.
    @Test func welchFalseAlarmRateIsItsLevel() {
        var rng = Normal(state: 42)
        var alarms = 0, found = 0
        let trials = 4_000
        for _ in 0..<trials {
            let base = rng.sample(20, sd: 10), same = rng.sample(20, sd: 20), worse = rng.sample(20, mean: 110, sd: 10)
            if Statistics.welchGreater(base: base, new: same)!.p < 0.05 { alarms += 1 }
            if Statistics.welchGreater(base: base, new: worse)!.p < 0.05 { found += 1 }
        }
        let rate = Double(alarms) / Double(trials)
        #expect(rate > 0.04 && rate < 0.06, "false alarm rate \(rate)")
        #expect(Double(found) / Double(trials) > 0.9)
    }

    /// The gate over 60 metrics with no real difference: with Bonferroni, at most about
    /// 5 % of 300 comparisons raise any alarm; without it nearly all would.
    @Test func bonferroniKeepsTheFamilyWiseRate() {
        var rng = Normal(state: 7)
        var anyAlarm = 0, uncorrected = 0
        let runs = 300
        for _ in 0..<runs {
            var base: [String: [Double]] = [:], new: [String: [Double]] = [:]
            for m in 0..<60 {
                base["latency.m\(m).p95"] = rng.sample(20)
                new["latency.m\(m).p95"] = rng.sample(20)
            }
            let rows = SeedComparison.compare(base: base, new: new, tolerance: 0)
            #expect(rows.count == 60)
            if rows.contains(where: \.regressed) { anyAlarm += 1 }
            if base.keys.contains(where: { Statistics.welchGreater(base: base[$0]!, new: new[$0]!)!.p < 0.05 }) { uncorrected += 1 }
        }
        #expect(Double(anyAlarm) / Double(runs) <= 0.07, "\(anyAlarm) of \(runs)")
        #expect(Double(uncorrected) / Double(runs) > 0.8)
    }

    /// A real shift is gated only beyond the tolerance; ungated metrics never are.
    @Test func toleranceAndGating() {
        var rng = Normal(state: 3)
        let base = rng.sample(20, mean: 100, sd: 1)
        let shifted = base.map { $0 + 3 }
        let rows = SeedComparison.compare(base: ["latency.x.p95": base, "backend.requests.total": base],
                                          new: ["latency.x.p95": shifted, "backend.requests.total": shifted], tolerance: 0.05)
        #expect(rows.map(\.metric) == ["latency.x.p95"])
        #expect(rows[0].regressed == false, "3 % is under the 5 % tolerance")
        let strict = SeedComparison.compare(base: ["latency.x.p95": base], new: ["latency.x.p95": shifted], tolerance: 0.01)
        #expect(strict[0].regressed)
        let better = SeedComparison.compare(base: ["latency.x.p95": shifted], new: ["latency.x.p95": base], tolerance: 0.01)
        #expect(better[0].improved && !better[0].regressed)
    }

    /// Rows by effect, largest first (a baseline of 0 ranks too), ties by name; a
    /// percentOfCapacity metric is dropped when its mAh twin is tested, and counts for
    /// Bonferroni no more.
    @Test func rowsByEffectWithoutTwins() {
        let energy = "battery.ios.appEnergyPerDeviceDay.mAh.mean", share = "battery.ios.appEnergyPerDeviceDay.percentOfCapacity.mean"
        let alone = "battery.android.energyPerSync.percentOfCapacity.p95"
        let base: [String: [Double]] = ["latency.a.p95": [1, 2, 3], "latency.b.p95": [0, 1, 2], "latency.c.p95": [1, 2, 3],
                                        energy: [1, 2, 3], share: [0.1, 0.2, 0.3], alone: [1, 2, 3]]
        let new: [String: [Double]] = ["latency.a.p95": [2, 3, 4], "latency.b.p95": [4, 5, 6], "latency.c.p95": [2, 3, 4],
                                       energy: [1, 2, 3], share: [0.1, 0.2, 0.3], alone: [1.5, 2.5, 3.5]]
        let tested = SeedComparison.tested(base: base, new: new)
        #expect(tested.omitted == 1)
        #expect(!tested.metrics.contains(share) && tested.metrics.contains(alone))
        let rows = SeedComparison.compare(base: base, new: new, tolerance: 0)
        #expect(rows.map(\.metric) == ["latency.b.p95", "latency.a.p95", "latency.c.p95", alone, energy])
        #expect(rows.map(\.d) == [4, 1, 1, 0.5, 0])
    }

    /// Both means to the digits that tell them apart, in one unit, with their ±; a p of
    /// 3.2e-21 in scientific notation, and an exact one said to be exact.
    @Test func rowTexts() throws {
        let energy = "battery.ios.appEnergyPerDeviceDay.mAh.mean"
        // 0.0212 and 0.0236 mAh (+11.3 %) read "0.02 mAh" both with the report's own digits.
        #expect(MetricText.format(0.0212, path: energy) == MetricText.format(0.0236, path: energy))
        let apart = SeedComparison.meanTexts(base: [0.0211, 0.0213], new: [0.0235, 0.0237], energy)
        #expect(apart.base == "0.0212 mAh ± 0.0013 mAh" && apart.new == "0.0236 mAh ± 0.0013 mAh", "\(apart)")
        // Five significant digits are the least that separate 1.2341 s from 1.2344 s.
        let close = SeedComparison.meanTexts(base: [1.2341, 1.2341], new: [1.2344, 1.2344], "latency.x.p95")
        #expect(close.base == "1.2341 s ± 0.0000 s" && close.new == "1.2344 s ± 0.0000 s", "\(close)")
        // One unit per row, the larger mean's: 900 ms beside 1.5 s reads 0.90 s and 1.50 s.
        let units = SeedComparison.meanTexts(base: [0.9, 0.9], new: [1.5, 1.5], "latency.x.p95")
        #expect(units.base == "0.90 s ± 0.00 s" && units.new == "1.50 s ± 0.00 s", "\(units)")
        // Equal means: 3 significant digits; thousands separated.
        let equal = SeedComparison.meanTexts(base: [1_234_567, 1_234_567], new: [1_234_567, 1_234_567], "backend.requests.rejected")
        #expect(equal.base == "1,234,567 ± 0" && equal.new == equal.base, "\(equal)")

        let far = SeedComparison.Row(metric: "latency.x.p95", base: [1, 2], new: [5, 6], p: 3.2e-21, d: 5.66, regressed: true, improved: false)
        #expect(SeedComparison.pText(far) == "3.2e-21")
        let exact = SeedComparison.Row(metric: "latency.x.p95", base: [1, 1], new: [2, 2], p: 0, d: .infinity, regressed: true, improved: false)
        #expect(SeedComparison.pText(exact) == "0 (no spread)")
        #expect(try #require(Statistics.welchGreater(base: [1, 1], new: [2, 2])).p == 0)
    }
}
