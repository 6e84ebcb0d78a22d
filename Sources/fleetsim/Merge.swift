import Foundation
import Reports
import Scenario

/// `fleetsim merge`: the shard reports of one run combined into one report
/// (``ReportMerge``), with its report.md, report.html and junit.xml.
struct Merge: Command {
    static let help = CommandHelp(
        name: "merge",
        abstract: "combine the shard reports of one run into one; histograms merge exactly",
        arguments: [.init(name: "REPORT.json...", text: "the report.json of every shard of one run (run --shard K/N), in any order")],
        options: [.valued("out", "DIR", "where the combined reports go", required: true)],
        discussion: """
        Counters are summed, peaks take the largest, load series are summed per bucket
        (peak series: the largest per bucket), latency percentiles are recomputed from
        the merged histograms, violation samples are merged in (time, device) order, and
        the expectations are judged again on the merged values. Per-device percentiles
        and ratios the shards' reports cannot rebuild are null (docs/scale.md lists them).
        Refused (exit 2, nothing written): reports of different scenarios, seeds or
        versions, a missing or duplicate shard, or different shard counts.
        Exit 1 when the merged run has a violation or a failed expectation.
        """,
        examples: ["fleetsim merge shards/0/report.json shards/1/report.json --out reports/merged",
                   "scripts/run-sharded.sh 4 scenarios/default.json --scale 0.1"]
    )

    var paths: [String]
    var out: String

    init(_ parsed: ParsedArguments) throws(CLIError) {
        paths = parsed.positionals
        guard !paths.isEmpty else { throw .usage("missing REPORT.json (the shards' reports)", command: "merge") }
        out = parsed.options["out"] ?? ""
    }

    mutating func validate() throws(CLIError) {
        try OutputDirectory.check(out)
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        var reports: [(name: String, report: ReportValue)] = []
        for path in paths { reports.append((path, Self.reportValue(try Compare.readJSON(path, "a report.json")))) }
        let merged: ReportValue
        do { merged = try ReportMerge.merge(reports) } catch { throw .input(error.message) }
        let markdown = MarkdownReport.render(merged)
        do {
            try AtomicFile.write(JSONWriter.encode(merged), to: "\(out)/report.json")
            try AtomicFile.write(markdown, to: "\(out)/report.md")
            try AtomicFile.write(HTMLReport.render(merged), to: "\(out)/report.html")
            try AtomicFile.write(JUnitReport.render(merged), to: "\(out)/junit.xml")
        } catch {
            throw .input("cannot write the report: \(error)")
        }
        let violations = merged.lookup("invariants.violations")?.intValue ?? 0
        let failed = (merged.lookup("expect")?.arrayValue ?? []).filter { $0.lookup("pass") != .bool(true) }
        print("\(merged.lookup("scenario")?.stringValue ?? ""): \(reports.count) shards merged, "
              + "\(HumanUnits.count(merged.lookup("simulated.devices")?.intValue ?? 0)) devices, "
              + "\(HumanUnits.count(merged.lookup("simulated.events")?.intValue ?? 0)) events; "
              + "\(violations) invariant violation(s), \(failed.count) failed expectation(s).")
        for e in failed {
            print("FAIL expectation \(e.lookup("metric")?.stringValue ?? "") = \(e.lookup("value")?.doubleValue.map { String($0) } ?? "no data")")
        }
        print("Report: \(out)/report.md (and report.json, report.html, junit.xml)")
        return violations == 0 && failed.isEmpty ? 0 : 1
    }

    /// A parsed report.json as the writer's model: integers stay integers, fractional
    /// numbers keep the digits they were written with, so an unchanged value is
    /// written back byte for byte.
    static func reportValue(_ json: JSONValue) -> ReportValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(reportValue))
        case .object(let members): return .object(Dictionary(members.map { ($0.key, reportValue($0.value)) }, uniquingKeysWith: { a, _ in a }))
        case .number(let x, let literal):
            if !literal.contains(where: { ".eE".contains($0) }), let n = Int64(literal) { return .int(n) }
            let digits = literal.firstIndex(of: ".").map { literal.distance(from: $0, to: literal.endIndex) - 1 } ?? 0
            return .number(x, digits: digits)
        }
    }
}
