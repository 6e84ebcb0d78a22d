import Foundation
import Testing
@testable import Reports

/// Verdicts of expectations on a report: a percentile by its 95 % interval, everything
/// else by its value; what report.json, report.md and junit.xml say of each.
@Suite struct ExpectationJudgementTests {
    static let hour = 3_600_000_000 as Int64

    /// A report whose `latency.x` has one sample at each of 1 h, 2 h, … `n` h.
    static func report(hours n: Int64) -> ReportValue {
        var h = LatencyHistogram()
        for k in 1...n { h.record(k * hour) }
        return ["scenario": "s", "seed": 1, "latency": ["x": h.latencySummary()], "invariants": ["violations": 0, "byKind": [:]]]
    }

    static func judge(_ metric: String, min: Double? = nil, max: Double? = nil, maxText: String? = nil, on r: ReportValue) -> ExpectationJudgement {
        ExpectationJudgement.judge(metric: metric, min: min, max: max, maxText: maxText, in: r)
    }

    /// The done-when case: a p95 from 80 samples (76 h) against 78 h passes on its value
    /// but its interval (ranks 72 and 80: 71.9 h to 80.0 h) straddles the limit.
    @Test func aP95From80SamplesIsInconclusiveAndShowsItsInterval() {
        let e = Self.judge("latency.x.p95", max: 78 * 3_600, maxText: "78h", on: Self.report(hours: 80))
        #expect(e.value.map { abs($0 - 273_600) / 273_600 < 1.0 / 256 } == true)  // 76 h (rank 76), within a bucket
        #expect(e.samples == 80)
        #expect(e.interval == .init(low: 258_771.779584, high: 288_000))
        #expect(e.verdict == .inconclusive && !e.passed)
        #expect(e.verdictText == "inconclusive (n = 80; 95 % CI 71.9-80.0 h straddles 78.0 h)")
        #expect(!e.isFailure(strict: false) && e.isFailure(strict: true))
    }

    /// The whole interval within the limit passes; entirely beyond it fails.
    @Test func passAndFailNeedTheWholeInterval() {
        let r = Self.report(hours: 80)
        #expect(Self.judge("latency.x.p95", max: 80 * 3_600, on: r).verdict == .pass)  // up to max = 80 h exactly
        #expect(Self.judge("latency.x.p95", max: 79.9 * 3_600, on: r).verdict == .inconclusive)
        #expect(Self.judge("latency.x.p95", max: 71.8 * 3_600, on: r).verdict == .fail)  // below 71.88 h
        #expect(Self.judge("latency.x.p95", min: 71 * 3_600, on: r).verdict == .pass)
        #expect(Self.judge("latency.x.p95", min: 81 * 3_600, on: r).verdict == .fail)
        let fail = Self.judge("latency.x.p95", max: 60 * 3_600, maxText: "60h", on: r)
        #expect(fail.verdictText == "FAIL" && fail.evidenceText == "n = 80; 95 % CI 71.9-80.0 h" && fail.isFailure(strict: false))
    }

    /// Forty samples cannot bound a p95 from above (fewer than 72): even with every
    /// sample far below the limit the verdict is inconclusive, never pass; it can still fail.
    @Test func anIntervalOpenAboveCannotPass() {
        let r = Self.report(hours: 40)
        let e = Self.judge("latency.x.p95", max: 72 * 3_600, maxText: "72h", on: r)
        #expect(e.interval?.high == nil && e.verdict == .inconclusive)
        #expect(e.verdictText.hasPrefix("inconclusive (n = 40; 95 % CI ") && e.verdictText.hasSuffix(" h to ∞ straddles 72.0 h)"))
        #expect(Self.judge("latency.x.p95", max: 10 * 3_600, on: r).verdict == .fail)
        // One sample: the median is unbounded on both sides (lower bound written as 0).
        let one = Self.judge("latency.x.p50", max: 1, on: Self.report(hours: 1))
        #expect(one.interval == .init(low: 0, high: nil) && one.verdict == .inconclusive)
    }

    /// A latency's `max` is exact (n, no interval); counters have neither; a percentile of
    /// no samples is inconclusive (n = 0), an empty histogram's `max` fails.
    @Test func otherMetricsAreJudgedOnTheirValue() {
        let r = Self.report(hours: 80)
        let max = Self.judge("latency.x.max", max: 80 * 3_600, on: r)
        #expect(max.samples == 80 && max.interval == nil && max.verdict == .pass)
        let violations = Self.judge("invariants.violations", max: 0, on: r)
        #expect(violations.samples == nil && violations.interval == nil && violations.verdict == .pass)
        #expect(Self.judge("invariants.violations", min: 1, on: r).verdict == .fail)
        let empty: ReportValue = ["latency": ["x": LatencyHistogram().latencySummary()]]
        let none = Self.judge("latency.x.p95", max: 1, on: empty)
        #expect(none.value == nil && none.samples == 0 && none.interval == nil && none.verdict == .inconclusive)
        #expect(Self.judge("latency.x.max", max: 1, on: empty).verdict == .fail)
        #expect(Self.judge("backend.nothing", max: 1, on: empty).verdict == .fail)
    }

    /// A batch-means verdict's clauses (n, interval, what it straddles, the method) read
    /// as one parenthesis, separated by semicolons: no `(n = 128 (insufficient: …))`.
    @Test func aBatchMeansVerdictReadsAsOneParenthesis() {
        func document(perSpan: Int, _ value: (Int, Int) -> Int64) -> ReportValue {
            var timeline = LatencyTimeline(bucketSeconds: 60, durationMicroseconds: 128 * 60_000_000)
            var all = LatencyHistogram()
            for s in 0..<128 {
                for i in 0..<perSpan {
                    timeline.record(value(s, i), at: Int64(s) * 60_000_000)
                    all.record(value(s, i))
                }
            }
            return ["backend": ["queueing": all.latencySummary()],
                    "batches": LatencyTimeline.section([("backend.queueing", timeline)], bucketSeconds: 60)]
        }
        // One wait a span: no 10 batches hold the 200 a p99 needs.
        let few = Self.judge("backend.queueing.p99", max: 1, on: document(perSpan: 1) { _, _ in 500_000 })
        #expect(few.verdict == .inconclusive)
        #expect(few.verdictText == "inconclusive (n = 128; insufficient: too few samples for 10 batches)")
        #expect(few.evidenceText == "n = 128; insufficient: too few samples for 10 batches")
        // Waits of 0.1 s to 2 s, the same in every span: an interval that straddles 1 s.
        let straddling = Self.judge("backend.queueing.p50", max: 1, on: document(perSpan: 20) { s, i in Int64((i * 100 + s % 2) * 1_000 + 100_000) })
        #expect(straddling.verdict == .inconclusive, "\(straddling.verdictText)")
        let text = straddling.verdictText
        #expect(text.hasPrefix("inconclusive (n = 2,560; 95 % CI ") && text.hasSuffix(" straddles 1.0 s; batch means: 32 batches of 4.0 min)"), "\(text)")
        #expect(text.filter { $0 == "(" }.count == 1 && text.last == ")", "\(text)")
    }

    /// report.json's entry keeps the old keys (`pass` true only for a pass) and adds
    /// `verdict`, `limit`, `n`, `ciLow`, `ciHigh`, `ciMethod`, `batches`; it reads back to the same judgement,
    /// and an old entry without `verdict` reads as its `pass`.
    @Test func theReportEntryRoundTripsAndKeepsTheOldKeys() throws {
        let e = Self.judge("latency.x.p95", max: 78 * 3_600, maxText: "78h", on: Self.report(hours: 80))
        let entry = e.reportValue
        let keys = try #require(entry.objectValue).keys.sorted()
        #expect(keys == ["batches", "ciHigh", "ciLow", "ciMethod", "limit", "max", "maxAsWritten", "metric", "min", "minAsWritten", "n", "pass", "value", "verdict"])
        #expect(entry.lookup("ciMethod") == .string("order statistics") && entry.lookup("batches") == .null)
        #expect(entry.lookup("pass") == .bool(false) && entry.lookup("verdict") == .string("inconclusive"))
        #expect(entry.lookup("limit")?.doubleValue == 280_800 && entry.lookup("n")?.intValue == 80)
        #expect(entry.lookup("ciLow")?.doubleValue == 258_771.779584 && entry.lookup("ciHigh")?.doubleValue == 288_000)
        #expect(ExpectationJudgement(reportEntry: entry) == e)
        let twoSided = Self.judge("latency.x.p95", min: 1, max: 2, on: Self.report(hours: 80)).reportValue
        #expect(twoSided.lookup("limit") == .null)
        let old: ReportValue = ["metric": "invariants.violations", "min": .null, "max": .fixed(0, 6), "value": .fixed(0, 6), "pass": .bool(true)]
        #expect(ExpectationJudgement(reportEntry: old).verdict == .pass)
    }

    /// report.md and junit.xml say which: the verdict banner, the expectations table, a
    /// skipped test case (a failure with --strict).
    @Test func documentsSayInconclusiveAndStrictMakesItAFailure() {
        var r = Self.report(hours: 80)
        if case .object(var members) = r {
            members["expect"] = [Self.judge("latency.x.p95", max: 78 * 3_600, maxText: "78h", on: r).reportValue]
            r = .object(members)
        }
        let md = MarkdownReport.render(r)
        #expect(md.contains("**INCONCLUSIVE**: 0 invariant violation(s), 0 of 1 expectation(s) failed, 1 inconclusive"))
        // The Expectations table, right under the verdict: n and the interval in their columns, then the result.
        #expect(md.range(of: #"\| +80 \| 71\.9-80\.0 h \(order statistics\) \| \? inconclusive \(straddles 78\.0 h\) \|"#, options: .regularExpression) != nil)
        #expect(MarkdownReport.render(r, strict: true).contains("**FAIL**: 0 invariant violation(s), 0 of 1 expectation(s) failed, 1 inconclusive"))
        #expect(HTMLReport.render(r).contains("class=\"banner inconclusive\""))
        #expect(HTMLReport.render(r).contains("<tr class=\"inconclusive\">"))
        let junit = JUnitReport.render(r)
        #expect(junit.contains("failures=\"0\" errors=\"0\" skipped=\"1\""))
        #expect(junit.contains("<skipped message=\"latency.x.p95 = 75.9 h, limit ≤ 78.0 h: inconclusive (n = 80; 95 % CI 71.9-80.0 h straddles 78.0 h) (not a failure without --strict)\"/>"))
        let strict = JUnitReport.render(r, strict: true)
        #expect(strict.contains("failures=\"1\" errors=\"0\" skipped=\"0\"") && strict.contains("type=\"inconclusive\""))
        #expect(ReportSections.passed(r) && !ReportSections.passed(r, strict: true))
    }

    /// Every latency row says how many samples it rests on.
    @Test func latencyRowsShowTheirSampleCount() {
        // A feature's row built with ``ReportSections/latencyFigures`` as well.
        let feature = FeatureSection(id: "f", tocLabel: "F") { r in
            ReportSection(id: "f", title: "F", blocks: [.table(header: ["", "value"], rows: [
                ["test available → notified, p95", ReportSections.latencyFigures(r, "latency.testAvailableToNotified", "p95")]])])
        }
        let md = MarkdownReport.render(SampleReport.document(), features: [feature])
        let row = md.split(separator: "\n").first { $0.contains("test available → notified, p95") }
        #expect(row?.contains("(n = 100)") == true, "\(row ?? "no row")")
        #expect(md.range(of: #"\| latency +\| +n \|"#, options: .regularExpression) != nil)
        let queueing = md.split(separator: "\n").first { $0.contains("queueing p99 / max") }
        #expect(queueing?.contains("(n = 5)") == true, "\(queueing ?? "no row")")
    }
}

extension ExpectationJudgementTests {
    /// Interval ends in one unit share it; ends that read alike get the decimals that
    /// tell them apart; an open end is ∞.
    @Test func intervalTextAtItsBoundaries() {
        typealias I = ExpectationJudgement.Interval
        #expect(ExpectationJudgement.rangeText(I(low: 51 * 3_600, high: 91 * 3_600)) == "51.0-91.0 h")
        #expect(ExpectationJudgement.rangeText(I(low: 45 * 60, high: 2.1 * 3_600)) == "45 min-2.1 h")
        #expect(ExpectationJudgement.rangeText(I(low: 19.922944, high: 20)) == "19.9-20.0 s")
        #expect(ExpectationJudgement.rangeText(I(low: 20, high: 20)) == "20-20 s")
        #expect(ExpectationJudgement.rangeText(I(low: 0, high: 2)) == "0 s-2.0 s")
        #expect(ExpectationJudgement.rangeText(I(low: 37 * 3_600, high: nil)) == "37.0 h to ∞")
    }
}
