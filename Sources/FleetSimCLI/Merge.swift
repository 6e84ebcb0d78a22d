import Foundation
import Reports
import Scenario
import Simulation

/// `fleetsim merge`: the shard reports of one run combined into one report
/// (``ReportMerge``), with its report.md, report.html and junit.xml; with `--partial`,
/// some of the shards into a part that merges again with the others.
struct Merge: Command {
    static let help = CommandHelp(
        name: "merge",
        abstract: "combine the shard reports of one run into one, in any order or grouping",
        arguments: [.init(name: "REPORT.json...", text: "the report.json of every shard of one run (run --shard K/N) or of merged parts, in any order;\n"
                                + "or every shard's directory of run --replications R --shard K/N (its seed-<s>/)")],
        options: [.valued("out", "DIR", "where the combined reports go", required: true),
                  .flag("partial", "merge some of the shards into a part (simulated.shards) that merges again with the rest"),
                  Run.strictOption],
        discussion: """
        Counters are summed, load series are summed per bucket (peak series: the largest
        per bucket), latency histograms and per-device distributions are merged and
        their percentiles recomputed, rates, peaks and headroom are derived again from
        the merged counts and series, violation samples are merged in (time, device)
        order, up to 3 of each kind, and the expectations are judged again on the merged values (a
        percentile by its confidence interval from the merged histogram, as run
        judges it). Merging is
        order-independent and associative, byte for byte (docs/scale.md has every key's rule).
        Refused (exit 2, nothing written): reports of different scenarios, seeds or
        versions, a shard twice, different shard counts, or (without --partial) a
        missing shard. Given the shards' directories of run --replications R
        --shard K/N, merge merges each seed's shards into DIR/seed-<s>/ and judges
        each expectation across the merged seeds as run --replications does
        (DIR/replications.json and .md, Student's t); refused (exit 2) when the
        directories hold different seeds.
        Exit 1 when the merged run has a violation or a failed expectation (with
        --strict also an inconclusive one; a part: a violation; its expectations
        are judged by the last merge).
        """,
        examples: ["fleetsim merge shards/0/report.json shards/1/report.json --out reports/merged",
                   "fleetsim merge shards/0/report.json shards/1/report.json --partial --out reports/part-a",
                   "scripts/run-sharded.sh 4 scenarios/default.json --scale 0.1"]
    )

    var paths: [String]
    var out: String
    var partial: Bool
    var strict: Bool
    /// The seeds of sharded replications (the positionals are the shards' directories,
    /// each with `seed-<s>/`), in order; empty when the positionals are reports.
    var seeds: [UInt64] = []

    init(_ parsed: ParsedArguments) throws(CLIError) {
        paths = parsed.positionals
        guard !paths.isEmpty else { throw .usage("missing REPORT.json (the shards' reports)", command: "merge") }
        out = parsed.options["out"] ?? ""
        partial = parsed.flags.contains("partial")
        strict = parsed.flags.contains("strict")
    }

    /// The report.json files of each merge: one group, or one a seed.
    var groups: [(out: String, paths: [String])] {
        seeds.isEmpty ? [(out, paths)] : seeds.map { seed in ("\(out)/seed-\(seed)", paths.map { "\($0)/seed-\(seed)/report.json" }) }
    }

    mutating func validate() throws(CLIError) {
        try OutputDirectory.check(out)
        let directories = paths.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if !directories.isEmpty {
            guard directories.count == paths.count else {
                throw .usage("expected either every shard's report.json or every shard's directory of run --replications R --shard K/N, "
                             + "found \(directories.count) directories and \(paths.count - directories.count) other file(s) (\(paths.first { !directories.contains($0) } ?? ""))",
                             command: "merge")
            }
            guard !partial else { throw .usage("--partial merges shards' report.json files, not the directories of replications", command: "merge") }
            seeds = try Self.replicationSeeds(paths)
        }
        var outputs = groups.flatMap { InputGuard.set($0.out, Run.files + [RequestLog.fileName]) }
        if !seeds.isEmpty { outputs += InputGuard.set(out, ["replications.json", "replications.md"]) }
        try InputGuard.check(inputs: groups.flatMap(\.paths).map { (path: $0, role: "a report to merge") }, outputs: outputs)
        // Each group is merged in turn, its memory freed before the next.
        for group in groups {
            // The request logs beside the reports: read, sorted (an index) and written again,
            // about 4 times their bytes (docs/scale.md, "One pooled backend").
            let logs = group.paths.map(RequestLogFiles.path(besideReport:)).reduce(0) { total, log in
                var status = stat()
                return total + (stat(log, &status) == 0 ? Int(status.st_size) : 0)
            }
            try MemoryGuard.checkInputs(group.paths, factor: MemoryGuard.mergeFactor, extra: 4 * logs, command: "merging these \(group.paths.count) report(s)",
                                        hint: "merge them a few at a time (merge --partial, then merge the parts), or free memory")
        }
    }

    /// The seeds of the shards' replication directories (`seed-<s>/` in each), which
    /// must be the same in every directory: each seed's shards merge into that seed's run.
    static func replicationSeeds(_ directories: [String]) throws(CLIError) -> [UInt64] {
        func seeds(_ directory: String) -> [UInt64] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.compactMap { name -> UInt64? in
                guard name.hasPrefix("seed-"), let seed = UInt64(name.dropFirst(5)), name == "seed-\(seed)" else { return nil }
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: "\(directory)/\(name)", isDirectory: &isDirectory) && isDirectory.boolValue ? seed : nil
            }.sorted()
        }
        func text(_ seeds: [UInt64]) -> String {
            seeds.isEmpty ? "none" : "seed-" + seeds.map(String.init).joined(separator: ", seed-") + " (\(seeds.count) seed\(seeds.count == 1 ? "" : "s"))"
        }
        let first = seeds(directories[0])
        guard first.count >= 2 else {
            throw .input("\(directories[0]): expected the seed-<s>/ directories of run --replications R --shard K/N (R at least 2), found \(text(first))")
        }
        for directory in directories.dropFirst() {
            let these = seeds(directory)
            guard these == first else {
                throw .input("\(directory): expected \(text(first)) as in \(directories[0]), found \(text(these)): "
                             + "every shard's directory must come from run --replications R --shard K/N with the same R and seed")
            }
        }
        return first
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        guard !seeds.isEmpty else { return try mergeOne(paths: paths, out: out, keep: true, context).status }
        var violations: [UInt64] = [], expectations: [[ExpectationJudgement]] = [], name = ""
        var written: [String] = []
        do throws(CLIError) {
            for group in groups {
                let (_, merged) = try mergeOne(paths: group.paths, out: group.out, keep: false, context)
                written.append(group.out)
                name = merged.lookup("scenario")?.stringValue ?? ""
                violations.append(UInt64(merged.lookup("invariants.violations")?.intValue ?? 0))
                expectations.append(ReportSections.expectations(merged))
            }
        } catch {
            // Nothing written when a seed's shards are refused: the seeds merged before it are removed.
            for directory in written {
                for file in Run.files + [RequestLog.fileName] { unlink("\(directory)/\(file)") }
                rmdir(directory)
            }
            throw error
        }
        return try Replications.conclude(name: name, seeds: seeds, violations: violations, expectations: expectations,
                                         merged: paths.count, root: out, file: nil, strict: strict)
    }

    /// One merge: `paths`' reports into `out`'s report set, its console lines, its exit
    /// status and the merged report. `keep` leaves the reports to the process's exit.
    func mergeOne(paths: [String], out: String, keep: Bool, _ context: Context) throws(CLIError) -> (status: Int32, merged: ReportValue) {
        // Each report is read on its own core (16 shards of a million-phone day: 58 MB).
        let reports = try Parallel.map(paths.count) { k throws(CLIError) in (name: paths[k], report: try Self.readReport(paths[k])) }
        var merged: ReportValue
        do { merged = try ReportMerge.merge(reports, rules: ReferenceWorld.mergeRules, partial: partial, runner: context.runner) } catch { throw .input(error.message) }
        // One pooled backend (docs/scale.md, "One pooled backend"): the shards' recorded
        // requests replayed through the whole capacity, once every shard is in.
        let logs = paths.map(RequestLogFiles.path(besideReport:))
        let missing = logs.filter { !RequestLogFiles.exists($0) }
        var union: [UInt8]?
        if missing.isEmpty {
            let (header, records) = try RequestLogFiles.union(logs)
            union = RequestLog.file(header, records)
            if merged.lookup("simulated.shards.covered") == nil {
                let outcome = PooledReplay.replay(records, capacity: .init(header), durationMicroseconds: header.durationMicroseconds)
                let shards = PooledReport.ShardAnswers(clientTimeouts: Int64(merged.lookup("backend.clientTimeouts")?.intValue ?? 0),
                                                       longestWait: Int64(((merged.lookup("backend.queueing.max")?.doubleValue ?? 0) * 1_000_000).rounded()))
                merged = merged.setting(["backend", "pooled"], PooledReport.section(outcome, shards))
                // The pooled waits by span of simulated time: what a verdict on them rests
                // on (batch means); then the backend expectations are judged on the pooled figures.
                merged = merged.setting(["backend", "pooled", "batches"],
                                        ["bucketSeconds": .int(outcome.api.batches.bucketSeconds), "histograms": outcome.api.batches.encodings])
                merged = PooledJudgement.rejudge(merged)
            }
        }
        let strict = strict, features = context.engine.reportSections
        let wall = Self.wallTime(of: paths)
        let documents: [(name: String, render: @Sendable (ReportValue) -> [UInt8])] = [
            ("report.json", JSONWriter.utf8), ("report.md", { Array(MarkdownReport.render($0, features: features, strict: strict).utf8) }),
            ("report.html", { Array(HTMLReport.render($0, features: features, strict: strict).utf8) }), ("junit.xml", { Array(JUnitReport.render($0, strict: strict, wall: wall).utf8) })]
        let final = merged
        var rendered = try Parallel.map(documents.count) { k throws(CLIError) in (documents[k].name, documents[k].render(final)) }
        if let union { rendered.append((RequestLog.fileName, union)) }
        // The parsed reports and the merged one are left to the process's exit, as a
        // compiler leaves its syntax trees: freeing their millions of small objects one by
        // one cost a quarter of the merge's instructions (16 shards of a million-phone day).
        if keep { _ = Unmanaged.passRetained(KeptUntilExit((reports, merged))) }
        do {
            try ReportSet.write(rendered, to: out, dropping: union == nil ? [RequestLog.fileName] : [])
        } catch {
            throw .input("cannot write the report: \(error)")
        }
        let violations = merged.lookup("invariants.violations")?.intValue ?? 0
        let covered = merged.lookup("simulated.shards.covered")?.arrayValue?.compactMap(\.intValue)
        // A part's expectations are judged on its share of the fleet: they decide nothing
        // until the last merge.
        let judged = covered != nil ? [] : ReportSections.expectations(merged)
        let part = covered.map { " (a part: shards \($0.map(String.init).joined(separator: ", ")) of \(merged.lookup("simulated.shards.count")?.intValue ?? 0))" } ?? ""
        print("\(merged.lookup("scenario")?.stringValue ?? ""): \(reports.count) reports merged\(part), "
              + "\(HumanUnits.count(merged.lookup("simulated.devices")?.intValue ?? 0)) devices, "
              + "\(HumanUnits.count(merged.lookup("simulated.events")?.intValue ?? 0)) events; "
              + "\(violations) invariant violation(s), "
              + (covered != nil ? "expectations judged when every shard is merged." : Run.expectationCounts(judged, strict: strict)))
        for e in judged where e.verdict != .pass { print(Run.verdictLine(e, file: nil)) }
        if merged.lookup("backend.pooled") != nil { print(ReportSections.pooledLine(merged)) }
        else if !missing.isEmpty, missing.count < logs.count {
            print("No pooled backend: \(missing.count) of the \(logs.count) reports have no requests.bin beside them (\(missing[0]))")
        }
        print("Report: \(out)/report.md (and report.json, report.html, junit.xml\(union == nil ? "" : ", requests.bin"))")
        return (Self.exitStatus(merged, strict: strict), merged)
    }

    /// 0 when the merged run (or part) has no violation and (for a whole run) no failed
    /// expectation, else 1.
    static func exitStatus(_ merged: ReportValue, strict: Bool) -> Int32 {
        let violations = merged.lookup("invariants.violations")?.intValue ?? 0
        let judged = merged.lookup("simulated.shards.covered") != nil ? [] : ReportSections.expectations(merged)
        return violations == 0 && !judged.contains { $0.isFailure(strict: strict) } ? 0 : 1
    }

    /// The wall time of the merged runs for junit.xml: the sum of the suite `time` of the
    /// junit.xml beside each report (a run's or a part's, itself a sum), from the
    /// earliest `timestamp`; report.json has no wall time. The `wallTime` property says
    /// how many of the runs it counts.
    static func wallTime(of paths: [String]) -> JUnitReport.WallTime {
        var seconds = 0.0, found = 0
        var starts: [String] = []
        for path in paths {
            guard let text = try? String(contentsOfFile: OutputDirectory.parent(of: path) + "/junit.xml", encoding: .utf8),
                  let open = text.range(of: "<testsuite ") else { continue }
            let suite = text[open.lowerBound...].prefix { $0 != ">" }
            func attribute(_ name: String) -> String? {
                guard let r = suite.range(of: " \(name)=\"") else { return nil }
                return String(suite[r.upperBound...].prefix { $0 != "\"" })
            }
            guard let time = attribute("time").flatMap(Double.init) else { continue }
            seconds += time
            found += 1
            if let start = attribute("timestamp") { starts.append(start) }
        }
        let means = found == paths.count
            ? "the sum of the wall times of the \(paths.count) merged runs (the junit.xml beside each report)"
            : "the sum of the wall times of \(found) of the \(paths.count) merged runs (the others have no junit.xml with a time beside their report)"
        return .init(seconds: seconds, start: starts.min(), means: means)
    }

    /// A report.json as the writer's model: read in one pass (``ReportJSONReader``), or,
    /// for what that reader leaves to the general parser (non-ASCII text, `\u` escapes,
    /// malformed JSON), parsed and converted (``reportValue(_:)``), which words any error.
    static func readReport(_ path: String) throws(CLIError) -> ReportValue {
        let bytes = try Compare.readBytes(path, "a report.json")
        if let report = ReportJSONReader.read(bytes) { return report }
        return reportValue(try Compare.parseJSON(bytes, path, "a report.json"))
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
            // Bytes, not Characters: a report holds hundreds of thousands of numbers.
            let bytes = literal.utf8
            let point = bytes.firstIndex(of: UInt8(ascii: "."))
            if point == nil, !bytes.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }), let n = Int64(literal) { return .int(n) }
            return .number(x, digits: point.map { bytes.distance(from: $0, to: bytes.endIndex) - 1 } ?? 0)
        }
    }
}

/// A value kept alive until the process exits (see ``Merge/run(_:)``).
private final class KeptUntilExit<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
