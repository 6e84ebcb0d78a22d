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
struct SeedComparison {
    static let familyWiseLevel = 0.05

    var basePath: String
    var newPath: String
    var tolerance: Double
    var allowDifferent: Bool

    struct Sample {
        var identity: [String: String]
        var metrics: [String: [Double]]
    }

    struct Row {
        var metric: String
        var base: [Double]
        var new: [Double]
        var p: Double
        var regressed: Bool
        var improved: Bool
    }

    func run() throws(CLIError) -> Int32 {
        let base = try Self.read(basePath), new = try Self.read(newPath)
        let differences = ["scenario", "devices", "duration", "start"].compactMap { key -> String? in
            base.identity[key] == new.identity[key] ? nil : "\(key) \(base.identity[key] ?? "missing") vs \(new.identity[key] ?? "missing")"
        }
        if !differences.isEmpty {
            let text = "\(basePath) and \(newPath) explored different runs: " + differences.joined(separator: "; ")
            if !allowDifferent { throw .input(text + ". Explore the same scenario at the same --scale, or pass --allow-different.") }
            print("warning: " + text + " (compared anyway: --allow-different)")
        }
        let rows = Self.compare(base: base.metrics, new: new.metrics, tolerance: tolerance)
        let level = rows.isEmpty ? Self.familyWiseLevel : Self.familyWiseLevel / Double(rows.count)
        print("compare --seeds \(basePath) -> \(newPath)")
        print("Welch's t-test per lower-is-better metric (one-sided), \(rows.count) metric(s) tested, each at p < \(String(format: "%.3g", level)) "
              + "(Bonferroni: at most a 5 % chance of any false alarm), and a mean change beyond the tolerance of \(MetricText.plain(tolerance * 100)) %.")
        let header = ["metric", "baseline mean", "current mean", "change", "p"]
        func row(_ r: Row) -> [String] {
            let b = Statistics.mean(r.base), n = Statistics.mean(r.new)
            let change = b == 0 ? "" : String(format: "%.1f %%", (n - b) / abs(b) * 100)
            return [r.metric, Self.meanText(r.base, r.metric), Self.meanText(r.new, r.metric), change, String(format: "%.2g", r.p)]
        }
        let regressions = rows.filter(\.regressed), improvements = rows.filter(\.improved)
        if !regressions.isEmpty { print("\nREGRESSIONS (statistically significant, lower is better):\n" + MarkdownTable.render(header: header, rows: regressions.map(row))) }
        if !improvements.isEmpty { print("\nImprovements (statistically significant):\n" + MarkdownTable.render(header: header, rows: improvements.map(row))) }
        print("\n\(regressions.count) regression(s), \(improvements.count) improvement(s) over \(rows.count) metric(s) tested.")
        return regressions.isEmpty ? 0 : 1
    }

    /// `4.2 h ± 12 min (n = 20)`: the mean and the half-width of its 95 % interval.
    static func meanText(_ x: [Double], _ metric: String) -> String {
        let mean = MetricText.format(Statistics.mean(x), path: metric)
        guard let ci = Statistics.confidenceInterval95(x) else { return mean }
        return "\(mean) ± \(MetricText.format((ci.high - ci.low) / 2, path: metric))"
    }

    /// The tests, in metric order, over the gated metrics both sides have data for.
    static func compare(base: [String: [Double]], new: [String: [Double]], tolerance: Double) -> [Row] {
        let tested = base.keys.filter { ReportComparison.isGated($0) && (base[$0]?.count ?? 0) > 1 && (new[$0]?.count ?? 0) > 1 }.sorted()
        let level = familyWiseLevel / Double(max(tested.count, 1))
        return tested.compactMap { metric in
            let b = base[metric]!, n = new[metric]!
            guard let greater = Statistics.welchGreater(base: b, new: n), let smaller = Statistics.welchGreater(base: n, new: b) else { return nil }
            let mb = Statistics.mean(b), mn = Statistics.mean(n)
            let allowance = abs(mb) * tolerance
            let regressed = greater.p < level && mn > mb + allowance
            let improved = smaller.p < level && mn < mb - allowance
            return Row(metric: metric, base: b, new: n, p: regressed ? greater.p : improved ? smaller.p : min(greater.p, smaller.p),
                       regressed: regressed, improved: improved)
        }
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
        return Sample(identity: identity, metrics: metrics)
    }
}
