import Foundation
import Reports
import Scenario

/// `fleetsim compare --seeds BASE_DIR NEW_DIR`: a gate that is not flaky, because it
/// fires only on differences the seeds cannot explain.
///
/// For each metric where lower is better (``ReportComparison/isGated(_:)``) with at
/// least two per-seed values on both sides, Welch's t-test (one-sided: the new mean
/// is larger) on the per-seed values of the two summary.json files. A metric regresses
/// when its p-value is below 0.05 / m, m the number of metrics tested (Bonferroni:
/// the chance that any of them is a false alarm is at most 5 %), and the new mean
/// exceeds the baseline mean by more than the tolerance (practical significance).
/// A `percentOfCapacity` metric is not tested when its `mAh` twin is: the capacity is
/// fixed per cohort, so the two give the same t, p and change.
///
/// Tables list the largest effect first (Cohen's d, which also ranks a baseline of 0),
/// with a legend under each.
struct SeedComparison {
    static let familyWiseLevel = 0.05

    var basePath: String
    var newPath: String
    var tolerance: Double
    var allowDifferent: Bool
    var acceptModelVersion: Bool

    struct Sample {
        var identity: [String: String]
        /// summary.json's `modelVersion` (nil in a summary of a build before model versions).
        var modelVersion: JSONValue?
        var metrics: [String: [Double]]
    }

    struct Row {
        var metric: String
        var base: [Double]
        var new: [Double]
        var p: Double
        /// Cohen's d (``Statistics/effectSize(base:new:)``), the table's order.
        var d: Double
        var regressed: Bool
        var improved: Bool
    }

    static let legend = """
        mean ± h: the mean over the seeds and h the half-width of its 95 % confidence interval (Student t, n − 1 degrees of freedom); \
        change: (current − baseline)/|baseline|; p: one-sided Welch t-test; d: difference of means over the pooled standard deviation.
        """

    func run() throws(CLIError) -> Int32 {
        let base = try Self.read(basePath), new = try Self.read(newPath)
        try Compare.checkModelVersions(basePath, base.modelVersion, newPath, new.modelVersion, accept: acceptModelVersion)
        let differences = ["scenario", "devices", "duration", "start"].compactMap { key -> String? in
            base.identity[key] == new.identity[key] ? nil : "\(key) \(base.identity[key] ?? "missing") vs \(new.identity[key] ?? "missing")"
        }
        if !differences.isEmpty {
            let text = "\(basePath) and \(newPath) explored different runs: " + differences.joined(separator: "; ")
            if !allowDifferent { throw .input(text + ". Explore the same scenario at the same --scale, or pass --allow-different.") }
            print("warning: " + text + " (compared anyway: --allow-different)")
        }
        let tested = Self.tested(base: base.metrics, new: new.metrics)
        let rows = Self.compare(base: base.metrics, new: new.metrics, tolerance: tolerance)
        let level = rows.isEmpty ? Self.familyWiseLevel : Self.familyWiseLevel / Double(rows.count)
        let twins = tested.omitted == 0 ? "" : ", \(tested.omitted) percentOfCapacity twin(s) of tested mAh metrics omitted (proportional to mAh)"
        print("compare --seeds \(basePath) -> \(newPath)")
        print("Welch's t-test per lower-is-better metric (one-sided), \(rows.count) metric(s) tested\(twins), each at p < \(String(format: "%.3g", level)) "
              + "(Bonferroni: at most a 5 % chance of any false alarm), and a mean change beyond the tolerance of \(MetricText.plain(tolerance * 100)) %.")
        let header = ["metric", "baseline mean", "current mean", "change", "p", "d"]
        func row(_ r: Row) -> [String] {
            let b = Statistics.mean(r.base), n = Statistics.mean(r.new)
            let change = b == 0 ? "" : String(format: "%+.1f %%", (n - b) / abs(b) * 100)
            let means = Self.meanTexts(base: r.base, new: r.new, r.metric)
            return [r.metric, means.base, means.new, change, Self.pText(r), r.d.isFinite ? String(format: "%.2f", r.d) : "∞"]
        }
        let regressions = rows.filter(\.regressed), improvements = rows.filter(\.improved)
        let legend = "\n" + Self.legend + (tested.omitted == 0 ? "" : " percentOfCapacity rows omitted (proportional to mAh).")
        if !regressions.isEmpty { print("\nREGRESSIONS (statistically significant, lower is better):\n" + MarkdownTable.render(header: header, rows: regressions.map(row)) + legend) }
        if !improvements.isEmpty { print("\nImprovements (statistically significant):\n" + MarkdownTable.render(header: header, rows: improvements.map(row)) + legend) }
        print("\n\(regressions.count) regression(s), \(improvements.count) improvement(s) over \(rows.count) metric(s) tested.")
        return regressions.isEmpty ? 0 : 1
    }

    /// `3.2e-21`; `0 (no spread)` when neither side varies, so the difference is exact.
    static func pText(_ r: Row) -> String {
        if Statistics.variance(r.base) == 0, Statistics.variance(r.new) == 0 { return r.p == 0 ? "0 (no spread)" : "1 (no spread)" }
        return String(format: "%.1e", r.p)
    }

    /// The row's two means, each `mean ± h` (h the half-width of its 95 % interval), in
    /// one unit (the one the larger mean reads in) and to one number of decimals: the
    /// larger mean's significant digits, the least from 3 up at which the printed means
    /// differ when the means do.
    /// The change is computed from unrounded means, so equal texts beside a change would
    /// contradict it.
    static func meanTexts(base: [Double], new: [Double], _ metric: String) -> (base: String, new: String) {
        let mb = Statistics.mean(base), mn = Statistics.mean(new)
        let unit = Self.unit(metric, magnitude: max(abs(mb), abs(mn)))
        let reference = max(abs(mb), abs(mn)) / unit.scale
        let leading = reference > 0 ? Int(log10(reference).rounded(.down)) : 0
        func decimals(_ significant: Int) -> Int { max(0, significant - 1 - leading) }
        var significant = 3
        while mb != mn, significant < 17, Self.number(mb / unit.scale, decimals(significant)) == Self.number(mn / unit.scale, decimals(significant)) {
            significant += 1
        }
        func text(_ x: [Double]) -> String {
            let mean = Self.number(Statistics.mean(x) / unit.scale, decimals(significant)) + unit.suffix
            guard let ci = Statistics.confidenceInterval95(x) else { return mean }
            return mean + " ± " + Self.number((ci.high - ci.low) / 2 / unit.scale, decimals(significant)) + unit.suffix
        }
        return (text(base), text(new))
    }

    /// `x` with `decimals` fraction digits; whole numbers with thousands separators.
    static func number(_ x: Double, _ decimals: Int) -> String {
        if decimals == 0, x.isFinite, x.magnitude < 9e15 { return HumanUnits.count(Int64(x.rounded())) }
        return FixedDecimal.format(x, digits: decimals) ?? "n/a"
    }

    /// The unit ``MetricText`` reads a value of `magnitude` at `metric` in: its size in
    /// the metric's own unit and its suffix.
    static func unit(_ metric: String, magnitude: Double) -> (scale: Double, suffix: String) {
        func time(_ seconds: Double, perSecond: Double) -> (scale: Double, suffix: String) {
            switch seconds {
            case 0: (perSecond, " s")
            case ..<0.001: (perSecond / 1_000_000, " µs")
            case ..<1: (perSecond / 1_000, " ms")
            case ..<60: (perSecond, " s")
            case ..<3_600: (perSecond * 60, " min")
            case ..<360_000: (perSecond * 3_600, " h")
            default: (perSecond * 86_400, " d")
            }
        }
        switch MetricText.kind(of: metric) {
        case .duration: return time(magnitude, perSecond: 1)
        case .microseconds: return time(magnitude / 1_000_000, perSecond: 1_000_000)
        case .energy: return (1, " mAh")
        case .percent: return (1, " %")
        case .fraction: return (0.01, " %")
        case .rate: return (1, " req/s")
        case .plain: return (1, "")
        }
    }

    /// The gated metrics both sides have at least two values for, by name, without a
    /// `percentOfCapacity` metric whose `mAh` twin is among them (`omitted` counts those).
    static func tested(base: [String: [Double]], new: [String: [Double]]) -> (metrics: [String], omitted: Int) {
        let candidates = Set(base.keys.filter { ReportComparison.isGated($0) && (base[$0]?.count ?? 0) > 1 && (new[$0]?.count ?? 0) > 1 })
        let twins = candidates.filter { metric in
            let parts = metric.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.contains("percentOfCapacity") else { return false }
            return candidates.contains(parts.map { $0 == "percentOfCapacity" ? "mAh" : $0 }.joined(separator: "."))
        }
        return (candidates.subtracting(twins).sorted(), twins.count)
    }

    /// The tests over ``tested(base:new:)``, largest effect (|d|) first, ties by name.
    static func compare(base: [String: [Double]], new: [String: [Double]], tolerance: Double) -> [Row] {
        let tested = tested(base: base, new: new).metrics
        let level = familyWiseLevel / Double(max(tested.count, 1))
        let rows = tested.compactMap { metric -> Row? in
            let b = base[metric]!, n = new[metric]!
            guard let greater = Statistics.welchGreater(base: b, new: n), let smaller = Statistics.welchGreater(base: n, new: b),
                  let d = Statistics.effectSize(base: b, new: n) else { return nil }
            let mb = Statistics.mean(b), mn = Statistics.mean(n)
            let allowance = abs(mb) * tolerance
            let regressed = greater.p < level && mn > mb + allowance
            let improved = smaller.p < level && mn < mb - allowance
            return Row(metric: metric, base: b, new: n, p: regressed ? greater.p : improved ? smaller.p : min(greater.p, smaller.p),
                       d: d, regressed: regressed, improved: improved)
        }
        // Stable over the name order, so equal effects stay by name.
        return rows.enumerated().sorted { $0.element.d != $1.element.d ? $0.element.d > $1.element.d : $0.offset < $1.offset }.map(\.element)
    }

    /// Reads `DIR/summary.json` of `explore --out`: its identity and per-seed values.
    static func read(_ directory: String) throws(CLIError) -> Sample {
        let path = "\(directory)/summary.json"
        let value = try Compare.readJSON(path, "the summary.json of explore --out")
        guard case .string(ExploreSummary.format)? = value["format"] else {
            throw .input("\(path): $.format: expected \"\(ExploreSummary.format)\", found \(value["format"]?.foundDescription ?? "nothing")")
        }
        var identity: [String: String] = [:]
        identity["scenario"] = value["scenario"].map(Compare.literal)
        identity["devices"] = Compare.lookup(value, "simulated.devices").map(Compare.literal)
        identity["duration"] = Compare.lookup(value, "simulated.duration").map(Compare.literal)
        identity["start"] = Compare.lookup(value, "simulated.startUnixSeconds").map(Compare.literal)
        var metrics: [String: [Double]] = [:]
        guard case .object(let members)? = value["metrics"] else { throw .input("\(path): $.metrics: expected an object of metrics, found nothing") }
        for m in members {
            guard case .array(let list)? = m.value["values"] else {
                throw .input("\(path): $.metrics.\(m.key).values: expected the per-seed values, found \(m.value["values"]?.foundDescription ?? "nothing")")
            }
            metrics[m.key] = list.compactMap { if case .number(let x, _) = $0 { return x } else { return nil } }
        }
        return Sample(identity: identity, modelVersion: value["modelVersion"], metrics: metrics)
    }
}
