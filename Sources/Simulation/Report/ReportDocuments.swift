import Foundation
import Reports

/// The human-facing documents of a run, rendered from its `report.json` document.
public enum ReportDocuments {
    /// `report.md`: the summary a person reads first. `wallSeconds` lives here (and on
    /// stderr), never in `report.json`, whose bytes must not depend on the machine.
    public static func markdown(_ outcome: RunOutcome, wallSeconds: Double?) -> String {
        let r = outcome.report
        func text(_ path: String) -> String { render(r.lookup(path)) }
        var out = "# FleetSim report: \(text("scenario"))\n\n"
        out += "Seed \(text("seed")), \(text("simulated.devices")) devices, \(text("simulated.duration")) s simulated from \(text("simulated.start")), \(text("simulated.events")) events"
        if let wallSeconds { out += ", \(String(Int(wallSeconds * 1000))) ms of wall time" }
        out += ". FleetSim \(text("fleetsimVersion")).\n\n"
        out += "**Verdict: \(outcome.passed ? "PASS" : "FAIL")**: \(outcome.violations) invariant violation(s), "
        out += "\(outcome.expectations.filter { !$0.passed }.count) of \(outcome.expectations.count) expectation(s) failed.\n\n"

        out += "## Latency (seconds)\n\n"
        let latencyNames = ["testAvailableToNotified", "testAvailableToSeen", "refreshTaskDuration"]
        out += MarkdownTable.render(header: ["latency", "count", "p50", "p90", "p95", "p99", "max"],
                                    rows: latencyNames.map { n in [n] + ["count", "p50", "p90", "p95", "p99", "max"].map { text("latency.\(n).\($0)") } },
                                    alignments: [.left] + Array(repeating: .right, count: 6))
        out += "\n## Battery per cohort\n\n"
        let cohorts = r.lookup("battery")?.objectValue?.keys.sorted() ?? []
        out += MarkdownTable.render(
            header: ["cohort", "app mAh/device-day p50", "p95", "mAh/refresh p50", "% of battery/refresh p95", "wakeups/day", "radio s/day", "over budget"],
            rows: cohorts.map { c in
                let b = "battery.\(c)"
                return [c, text("\(b).appEnergyPerDeviceDay.mAh.p50"), text("\(b).appEnergyPerDeviceDay.mAh.p95"),
                        text("\(b).energyPerRefresh.mAh.p50"), text("\(b).energyPerRefresh.percentOfCapacity.p95"),
                        text("\(b).wakeupsPerDeviceDay.mean"), text("\(b).radioActiveSecondsPerDeviceDay.mean"), text("\(b).devicesOverBudget")]
            },
            alignments: [.left] + Array(repeating: .right, count: 7))
        out += "\nEnergy per refresh is the modelled CPU and LTE radio cost (REFERENCE.md I); the budget is seed 000's \"< 1% per refresh\".\n"

        out += "\n## Backend\n\n"
        out += MarkdownTable.render(header: ["requests", "mean req/s", "p99 req/s", "peak req/s", "queueing p99 (s)", "503", "no answer", "401"],
                                    rows: [[text("backend.requests.total"), text("backend.requestsPerSecond.mean"), text("backend.requestsPerSecond.p99"),
                                            text("backend.requestsPerSecond.peak"), text("backend.queueing.p99"), text("backend.rejected"),
                                            text("backend.unanswered"), text("backend.unauthorized")]],
                                    alignments: Array(repeating: .right, count: 8))
        out += "\n## Scheduling\n\n"
        out += MarkdownTable.render(header: ["launches", "expirations", "early expirations", "watchdog kills", "submit unavailable", "held back (LPM)", "jetsam kills"],
                                    rows: [["launches", "expirations", "earlyExpirations", "watchdogKills", "submitUnavailable", "heldBackByLowPowerMode", "jetsamKills"].map { text("scheduling.\($0)") }],
                                    alignments: Array(repeating: .right, count: 7))

        out += "\n## Invariants\n\n\(text("invariants.checked")) checks, \(text("invariants.violations")) violation(s).\n\n"
        let byKind = r.lookup("invariants.byKind")?.objectValue ?? [:]
        out += MarkdownTable.render(header: ["invariant", "violations"], rows: byKind.keys.sorted().map { [$0, render(byKind[$0])] }, alignments: [.left, .right])
        if let samples = r.lookup("invariants.samples")?.arrayValue, !samples.isEmpty {
            out += "\nFirst violations:\n\n"
            for s in samples {
                out += "- `\(render(s.lookup("kind")))` on device \(render(s.lookup("device"))) at \(render(s.lookup("time"))) s: \(render(s.lookup("detail")))\n  `\(render(s.lookup("replay")))`\n"
            }
        }
        if !outcome.expectations.isEmpty {
            out += "\n## Expectations\n\n"
            out += MarkdownTable.render(header: ["metric", "min", "max", "value", "result"],
                                        rows: outcome.expectations.map { e in
                                            [e.metric, e.min.map { fixed($0) } ?? "", e.max.map { fixed($0) } ?? "", e.value.map { fixed($0) } ?? "no data", e.passed ? "pass" : "FAIL"]
                                        }, alignments: [.left, .right, .right, .right, .left])
        }
        return out
    }

    /// The backend's load over time (`backend.load`): API requests and pushes per
    /// second and the push queue's peak, each series folded into at most 48 bars (the
    /// largest bucket of each group), labelled by the hour the group starts.
    static func loadCharts(_ r: ReportValue) -> String {
        let bucketSeconds = Double(r.lookup("backend.load.bucketSeconds")?.intValue ?? 60)
        func series(_ path: String) -> [Double]? { r.lookup(path)?.arrayValue?.map { $0.doubleValue ?? 0 } }
        func chart(_ title: String, _ values: [Double], unit: String) -> String {
            let group = max(1, (values.count + 47) / 48)
            var folded: [Double] = [], labels: [String] = []
            var start = 0
            while start < values.count {
                folded.append(values[start ..< min(values.count, start + group)].max() ?? 0)
                labels.append("\(Int(Double(start) * bucketSeconds / 3_600))h")
                start += group
            }
            return SVGChart.bars(title: title, labels: labels, values: folded, unit: unit, width: 960) + "\n"
        }
        var out = ""
        if let history = series("backend.load.requestsPerSecond./v1/test/history"),
           let active = series("backend.load.requestsPerSecond./v1/test/active"),
           let analyze = series("backend.load.requestsPerSecond./v1/homework/analyze") {
            let total = history.indices.map { history[$0] + active[$0] + analyze[$0] }
            out += chart("API requests per second (peak bucket)", total, unit: "req/s")
        }
        for provider in ["apns", "fcm"] {
            guard let sends = series("backend.load.pushesPerSecond.\(provider)"), sends.contains(where: { $0 > 0 }) else { continue }
            out += chart("\(provider.uppercased()) pushes per second (peak bucket)", sends, unit: "push/s")
            if let queue = series("backend.load.pushQueueDepthPeak.\(provider)") {
                out += chart("\(provider.uppercased()) push queue depth (peak)", queue, unit: "sends")
            }
        }
        return out
    }

    /// `report.html`: the same figures with inline SVG charts, no external assets.
    public static func html(_ outcome: RunOutcome, markdown: String) -> String {
        let r = outcome.report
        var charts = ""
        let names = ["testAvailableToNotified", "testAvailableToSeen", "refreshTaskDuration"]
        for name in names {
            let values = ["p50", "p90", "p95", "p99", "max"].map { r.lookup("latency.\(name).\($0)")?.doubleValue ?? 0 }
            charts += SVGChart.bars(title: "latency.\(name)", labels: ["p50", "p90", "p95", "p99", "max"], values: values, unit: "s") + "\n"
        }
        let cohorts = r.lookup("battery")?.objectValue?.keys.sorted() ?? []
        charts += SVGChart.bars(title: "App energy per device-day, p95 (mAh)", labels: cohorts,
                                values: cohorts.map { r.lookup("battery.\($0).appEnergyPerDeviceDay.mAh.p95")?.doubleValue ?? 0 }, unit: "mAh") + "\n"
        charts += loadCharts(r)
        let title = SVGChart.escape(r.lookup("scenario")?.stringValue ?? "")
        return """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>FleetSim: \(title)</title>
        <style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em}pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}</style>
        </head><body>
        <h1>FleetSim: \(title)</h1>
        <p><strong>\(outcome.passed ? "PASS" : "FAIL")</strong></p>
        \(charts)
        <pre>\(SVGChart.escape(markdown))</pre>
        </body></html>

        """
    }

    /// `junit.xml`: one test case per invariant kind and per expectation, for CI dashboards.
    public static func junit(_ outcome: RunOutcome) -> String {
        let r = outcome.report
        let name = SVGChart.escape(r.lookup("scenario")?.stringValue ?? "fleetsim")
        var cases = ""
        var failures = 0
        let byKind = r.lookup("invariants.byKind")?.objectValue ?? [:]
        for kind in byKind.keys.sorted() {
            let n = byKind[kind]?.intValue ?? 0
            cases += "  <testcase classname=\"\(name).invariants\" name=\"\(kind)\">"
            if n > 0 { failures += 1; cases += "<failure message=\"\(n) violation(s)\"/>" }
            cases += "</testcase>\n"
        }
        for e in outcome.expectations {
            cases += "  <testcase classname=\"\(name).expect\" name=\"\(SVGChart.escape(e.metric))\">"
            if !e.passed { failures += 1; cases += "<failure message=\"value \(e.value.map { fixed($0) } ?? "no data")\"/>" }
            cases += "</testcase>\n"
        }
        let tests = byKind.count + outcome.expectations.count
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"\(name)\" tests=\"\(tests)\" failures=\"\(failures)\">\n\(cases)</testsuite>\n"
    }

    private static func render(_ value: ReportValue?) -> String {
        guard let value else { return "" }
        switch value {
        case .null: return "n/a"
        case .string(let s): return s
        default: return JSONWriter.encode(value).trimmingCharacters(in: .newlines)
        }
    }

    private static func fixed(_ x: Double) -> String { render(.fixed(x, 3)) }
}
