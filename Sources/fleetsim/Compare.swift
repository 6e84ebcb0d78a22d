import Foundation
import Reports
import Scenario

/// `fleetsim compare BASELINE.json REPORT.json [--tolerance PCT]`: exit 1 when a
/// gated metric regressed (see ``ReportComparison``).
enum Compare {
    static func run(_ args: ArraySlice<String>) throws(UsageError) -> Int32 {
        let parsed = try Arguments(args, valued: ["tolerance"], flags: [])
        let baselinePath = try parsed.positional(0, "BASELINE report.json")
        let currentPath = try parsed.positional(1, "REPORT report.json")
        try parsed.noExtraPositionals(after: 2)
        let percent = try parsed.double("tolerance") ?? 5
        guard percent >= 0 else { throw UsageError("--tolerance must be >= 0 (percent), found \(percent)") }
        guard let baseline = leaves(baselinePath), let current = leaves(currentPath) else { return 2 }
        let result = ReportComparison(baseline: baseline, current: current, tolerance: percent / 100)

        func row(_ c: ReportComparison.Change) -> [String] {
            let b = c.baseline.map { format($0) } ?? "missing", a = c.current.map { format($0) } ?? "missing"
            var delta = ""
            if let x = c.baseline, let y = c.current, x != 0 { delta = format((y - x) / abs(x) * 100) + " %" }
            return [c.metric, b, a, delta]
        }
        let header = ["metric", "baseline", "current", "change"]
        print("compare \(baselinePath) -> \(currentPath), tolerance \(format(percent)) %")
        if !result.regressions.isEmpty {
            print("\nREGRESSIONS (lower is better):\n" + MarkdownTable.render(header: header, rows: result.regressions.map(row)))
        }
        if !result.improvements.isEmpty {
            print("\nImprovements:\n" + MarkdownTable.render(header: header, rows: result.improvements.map(row)))
        }
        if !result.changes.isEmpty {
            print("\nOther changes beyond the tolerance (not gated):\n" + MarkdownTable.render(header: header, rows: result.changes.map(row)))
        }
        print("\n\(result.regressions.count) regression(s), \(result.improvements.count) improvement(s), \(result.changes.count) other change(s).")
        return result.regressions.isEmpty ? 0 : 1
    }

    /// The numeric leaves of a report by dotted path (arrays such as `expect` and
    /// `invariants.samples` are not metrics and are skipped).
    static func leaves(_ path: String) -> [String: Double?]? {
        guard let data = FileManager.default.contents(atPath: path) else {
            eprint("error: \(path): expected a readable report.json, found no such file")
            return nil
        }
        let value: JSONValue
        do { value = try JSONParser.parse(Array(data)) } catch {
            eprint("error: \(path): expected a report.json, found \(error)")
            return nil
        }
        guard case .object = value else {
            eprint("error: \(path): $: expected a report object, found \(value.foundDescription)")
            return nil
        }
        var out: [String: Double?] = [:]
        func walk(_ v: JSONValue, _ prefix: String) {
            switch v {
            case .object(let members): for m in members { walk(m.value, prefix.isEmpty ? m.key : "\(prefix).\(m.key)") }
            case .number(let x, _): out[prefix] = x
            case .null: out[prefix] = .some(nil)
            default: break
            }
        }
        walk(value, "")
        return out
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(format: "%.4g", x)
    }
}
