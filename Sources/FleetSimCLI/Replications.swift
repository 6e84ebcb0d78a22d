import Foundation
import Reports
import Scenario
import Simulation

/// `run --replications R`: the scenario at seeds S..S+R−1 (S its seed or `--seed`), each
/// seed's report set in `DIR/seed-<s>/`, and one judgement across the seeds in
/// `DIR/replications.json` and `DIR/replications.md`.
///
/// Rule (docs/report.md, "Intervals"; Law and Kelton, independent replications): the
/// seeds' runs are independent, so each expectation's figure, one estimate per seed, has
/// the 95 % interval mean ± t₀.₉₇₅,R−1 × s / √R (s the seeds' standard deviation),
/// judged as a percentile's interval is: pass when all of it is within the limits, fail
/// when none of it is, inconclusive when it straddles one. A seed without the figure
/// (no data) makes it fail. An invariant violated in any seed fails the run.
enum Replications {
    /// Student's t 97.5 % quantile for 1 to 30 degrees of freedom (the tables); beyond,
    /// ``BatchMeans/tQuantile975(degreesOfFreedom:)``.
    static let t975: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

    static func t(degreesOfFreedom nu: Int) -> Double {
        nu >= 1 && nu <= t975.count ? t975[nu - 1] : BatchMeans.tQuantile975(degreesOfFreedom: nu)
    }

    /// Each expectation judged across the seeds' outcomes (in the scenario's order),
    /// with the seeds' values.
    static func judge(_ outcomes: [RunOutcome]) -> [(judgement: ExpectationJudgement, values: [Double?])] {
        judge(expectations: outcomes.map(\.expectations))
    }

    /// The same from each seed's expectations (one list per seed, the scenario's order).
    static func judge(expectations perSeed: [[ExpectationJudgement]]) -> [(judgement: ExpectationJudgement, values: [Double?])] {
        guard let first = perSeed.first else { return [] }
        return first.indices.map { i in
            let each = perSeed.map { $0[i] }
            let values = each.map(\.value)
            let e = each[0]
            var result = ExpectationJudgement(metric: e.metric, min: e.min, max: e.max, minText: e.minText, maxText: e.maxText,
                                              value: nil, verdict: .fail)
            result.method = .replications
            result.samples = UInt64(perSeed.count)
            let known = values.compactMap { $0 }
            guard known.count == values.count, known.count >= 2 else { return (result, values) }
            let n = Double(known.count), mean = known.reduce(0, +) / n
            let sd = (known.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)).squareRoot()
            let half = t(degreesOfFreedom: known.count - 1) * sd / n.squareRoot()
            result.value = mean
            result.interval = .init(low: mean - half, high: mean + half)
            func within(_ x: Double) -> Bool { (e.min.map { x >= $0 } ?? true) && (e.max.map { x <= $0 } ?? true) }
            if within(mean - half) && within(mean + half) {
                result.verdict = .pass
            } else if e.min.map({ mean + half < $0 }) ?? false || e.max.map({ mean - half > $0 }) ?? false {
                result.verdict = .fail
            } else {
                result.verdict = .inconclusive
            }
            return (result, values)
        }
    }

    /// replications.json: the seeds, their violations, and each expectation across them.
    static func document(name: String, seeds: [UInt64], violations: [UInt64],
                         judged: [(judgement: ExpectationJudgement, values: [Double?])]) -> ReportValue {
        [
            "scenario": .string(name),
            "fleetsimVersion": .string(fleetsimVersion),
            "seeds": .array(seeds.map { .count($0) }),
            "reports": .array(seeds.map { .string("seed-\($0)/report.json") }),
            "violations": .array(violations.map { .count($0) }),
            "expect": .array(judged.map { j in
                var entry = j.judgement.reportValue.objectValue ?? [:]
                entry["values"] = .array(j.values.map { $0.map { .fixed($0, 6) } ?? .null })
                return .object(entry)
            }),
        ]
    }

    /// replications.md: one table, an expectation a row. `merged` says how many shards
    /// each seed's report was merged from (`merge` of sharded replications).
    static func markdown(name: String, seeds: [UInt64], violations: [UInt64], merged shards: Int? = nil,
                         judged: [(judgement: ExpectationJudgement, values: [Double?])]) -> String {
        let total = violations.reduce(UInt64(0), +)
        var lines = ["# \(name): \(seeds.count) replications (seeds \(seeds.first!)-\(seeds.last!))", "",
                     "Each seed's report is in `seed-<seed>/`\(shards.map { ", merged from its \($0) shards" } ?? ""). "
                        + "Each expectation is judged by the 95 % interval of its figure across "
                        + "the seeds (Student's t over one estimate per seed: independent replications). "
                        + "Invariant violations, all seeds: \(total).", ""]
        lines.append(MarkdownTable.render(header: ["metric", "mean", "limit", "95 % CI (replications)", "result", "per seed"], rows: judged.map { j in
            let e = j.judgement
            return [e.metric, e.valueText, e.limitText, e.interval.map { "\(MetricText.format($0.low, path: e.metric))-\(MetricText.format($0.high, path: e.metric))" } ?? "", e.verdict == .fail ? "FAIL" : e.verdict.rawValue,
                    j.values.map { MetricText.format($0, path: e.metric) }.joined(separator: ", ")]
        }))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The judgement across the seeds of `run --replications` and of `merge` of sharded
    /// replications: replications.json and .md in `root`, the console's lines, and the
    /// exit status (1 when a seed violated an invariant or an expectation failed across
    /// the seeds; with `strict` also an inconclusive one).
    static func conclude(name: String, seeds: [UInt64], violations: [UInt64], expectations: [[ExpectationJudgement]], merged shards: Int? = nil,
                         root: String, file: String?, strict: Bool) throws(CLIError) -> Int32 {
        let judged = judge(expectations: expectations)
        do {
            try ReportSet.write([("replications.json", JSONWriter.utf8(document(name: name, seeds: seeds, violations: violations, judged: judged))),
                                 ("replications.md", Array(markdown(name: name, seeds: seeds, violations: violations, merged: shards, judged: judged).utf8))],
                                to: root)
        } catch {
            throw .input("cannot write the replications' report: \(error)")
        }
        let judgements = judged.map(\.judgement)
        let total = violations.reduce(UInt64(0), +)
        print("\(name): \(seeds.count) replications (seeds \(seeds[0])-\(seeds[seeds.count - 1]))\(shards.map { ", each merged from \($0) shards" } ?? ""); "
              + "\(total) invariant violation(s); across the seeds: " + Run.expectationCounts(judgements, strict: strict))
        for e in judgements where e.verdict != .pass { print(Run.verdictLine(e, file: file)) }
        print("Replications: \(root)/replications.md (and replications.json; each seed's reports in seed-<seed>/)")
        return total == 0 && !judgements.contains { $0.isFailure(strict: strict) } ? 0 : 1
    }
}
