import Foundation
import Reports
import Scenario
import Simulation

/// `fleetsim compare`: the regression gate, between two reports or between two
/// `explore --out` directories (``SeedComparison``).
struct Compare: Command {
    static let help = CommandHelp(
        name: "compare",
        abstract: "regression gate between two reports, or between two explore --out directories",
        arguments: [
            .init(name: "BASELINE", text: "the baseline report.json (with --seeds: an explore --out directory)"),
            .init(name: "CURRENT", text: "the report.json to judge (with --seeds: an explore --out directory)"),
        ],
        options: [
            .valued("tolerance", "PCT", "practical significance: a lower-is-better metric must grow by more\nthan PCT percent of the baseline to count as a regression", default: "5"),
            .flag("seeds", "compare two explore --out directories with Welch's t-test per metric"),
            .flag("allow-different", "compare even if the scenarios, device counts, cohorts or durations differ"),
            .flag("accept-model-version", "compare even if the two sides come from different model versions\n(a baseline made before a change of the model moved the numbers)"),
        ],
        otherForms: ["fleetsim compare --seeds BASE_DIR NEW_DIR [--tolerance PCT] [--allow-different] [--accept-model-version]"],
        discussion: """
        Only metrics where lower is better are gated (latency percentiles, energy,
        wakeups, radio time, violations, rejected and unanswered requests, queueing,
        expirations, watchdog kills); other numbers that moved are listed, not gated.
        Identity fields (scenario, seed, fleetsimVersion, modelVersion, simulated.*) and repeated
        configuration are never compared. Reports of different scenarios, device
        counts, cohorts or durations are refused (exit 2) unless --allow-different.
        Reports (or explore summaries) of different model versions (modelVersion: a
        change of FleetSim that moves simulated numbers raises it) are refused (exit 2)
        unless --accept-model-version: regenerate the baseline with this build instead.

        With --seeds, a metric regresses only when the new seeds' mean is larger by a
        statistically significant amount: Welch's t-test (one-sided, unequal variances)
        on the per-seed values, at level 0.05 / m with m the number of metrics tested
        (Bonferroni), so the chance of any false alarm is at most 5 %; and the mean must
        also grow by more than the tolerance.
        A percentOfCapacity metric is not tested when its mAh twin is
        (the capacity is fixed per cohort, so both give the same test). Tables list the
        largest effect first (Cohen's d), p-values in scientific notation, and a legend.

        Exit 0 no regression, 1 a regression, 2 bad usage or incomparable inputs.
        """,
        examples: [
            "fleetsim compare reports/baselines/default.json reports/quick/report.json --tolerance 10",
            "fleetsim compare --seeds explore/clean explore/buggy",
        ]
    )

    var baselinePath: String
    var currentPath: String
    var tolerancePercent: Double
    var seeds: Bool
    var allowDifferent: Bool
    var acceptModelVersion: Bool

    init(_ parsed: ParsedArguments) throws(CLIError) {
        baselinePath = try parsed.positional(0, "BASELINE")
        currentPath = try parsed.positional(1, "CURRENT")
        try parsed.noExtraPositionals(after: 2)
        tolerancePercent = try parsed.double("tolerance") ?? 5
        guard tolerancePercent >= 0 else { throw .usage("--tolerance must be >= 0 (percent), found \(parsed.options["tolerance"] ?? "")", command: "compare") }
        seeds = parsed.flags.contains("seeds")
        allowDifferent = parsed.flags.contains("allow-different")
        acceptModelVersion = parsed.flags.contains("accept-model-version")
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        if seeds {
            return try SeedComparison(basePath: baselinePath, newPath: currentPath, tolerance: tolerancePercent / 100, allowDifferent: allowDifferent,
                                      acceptModelVersion: acceptModelVersion).run()
        }
        try MemoryGuard.checkInputs([baselinePath, currentPath], factor: MemoryGuard.compareFactor, command: "comparing \(baselinePath) with \(currentPath)",
                                    hint: "compare on a machine with more memory, or free memory")
        // The model versions first: a baseline of another model may lack keys this build
        // writes, and its version is the reason to give.
        let baseline = try Self.readReport(baselinePath, checked: false, runner: context.runner)
        let current = try Self.readReport(currentPath, checked: false, runner: context.runner)
        try Self.checkModelVersions(baselinePath, baseline["modelVersion"], currentPath, current["modelVersion"], accept: acceptModelVersion)
        try Self.check(baseline, baselinePath)
        try Self.check(current, currentPath)
        let differences = Self.identityDifferences(baseline, current)
        if !differences.isEmpty {
            let text = "\(baselinePath) and \(currentPath) are reports of different runs: " + differences.joined(separator: "; ")
            if !allowDifferent { throw .input(text + ". Compare reports of the same scenario at the same --scale, or pass --allow-different.") }
            print("warning: " + text + " (compared anyway: --allow-different)")
        }
        let seedText = [baseline, current].map { $0["seed"].map(Self.literal) ?? "?" }
        if seedText[0] != seedText[1] {
            print("note: seeds differ (\(seedText[0]) vs \(seedText[1])): differences include seed-to-seed noise; for a statistical gate use explore --out and compare --seeds.")
        }
        let result = ReportComparison(baseline: ReportMetrics.leaves(of: baseline), current: ReportMetrics.leaves(of: current),
                                      tolerance: tolerancePercent / 100)

        func row(_ c: ReportComparison.Change) -> [String] {
            var delta = ""
            if let x = c.baseline, let y = c.current, x != 0 { delta = String(format: "%.1f %%", (y - x) / abs(x) * 100) }
            return [c.metric, c.baseline.map { MetricText.format($0, path: c.metric) } ?? "missing",
                    c.current.map { MetricText.format($0, path: c.metric) } ?? "missing", delta]
        }
        let header = ["metric", "baseline", "current", "change"]
        print("compare \(baselinePath) -> \(currentPath), tolerance \(MetricText.plain(tolerancePercent)) %")
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

    /// What makes two reports incomparable: a different scenario, device count,
    /// duration, start or set of cohorts (a different `--scale` changes the count).
    static func identityDifferences(_ a: JSONValue, _ b: JSONValue) -> [String] {
        var out: [String] = []
        for key in ["scenario", "simulated.devices", "simulated.duration", "simulated.start"] {
            let x = lookup(a, key).map(literal) ?? "missing", y = lookup(b, key).map(literal) ?? "missing"
            // Numbers are compared by value: a report re-serialised by another tool writes
            // `43200` for `43200.000000`.
            if case .number(let u, _)? = lookup(a, key), case .number(let v, _)? = lookup(b, key), u == v { continue }
            if x != y { out.append("\(key) \(x) vs \(y)") }
        }
        let ca = ReportMetrics.cohorts(of: a), cb = ReportMetrics.cohorts(of: b)
        if ca != cb { out.append("cohorts \(ca.joined(separator: ", ")) vs \(cb.joined(separator: ", "))") }
        return out
    }

    /// Refuses (exit 2) two sides of different model versions, naming both, unless
    /// `accept`; then warns. A report without the key predates model versions.
    static func checkModelVersions(_ basePath: String, _ base: JSONValue?, _ newPath: String, _ new: JSONValue?, accept: Bool) throws(CLIError) {
        let versions = [base, new].map { $0.map(literal) ?? "none (made before reports carried one)" }
        if case .number(let x, _)? = base, case .number(let y, _)? = new, x == y { return }
        guard versions[0] != versions[1] else { return }
        let text = "\(basePath) is of model version \(versions[0]) and \(newPath) of model version \(versions[1]): "
            + "the simulated numbers of two models differ by design, not by regression"
        if !accept {
            throw .input(text + ". Regenerate the baseline with this build, or pass --accept-model-version to compare anyway.")
        }
        print("warning: " + text + " (compared anyway: --accept-model-version)")
    }

    static func lookup(_ v: JSONValue, _ dotted: String) -> JSONValue? {
        var node: JSONValue? = v
        for key in dotted.split(separator: ".") { node = node?[String(key)] }
        return node
    }

    /// A scalar as the file writes it.
    static func literal(_ v: JSONValue) -> String {
        switch v {
        case .number(_, let text): return text
        case .string(let s): return "'\(s)'"
        default: return v.foundDescription
        }
    }

    /// Reads a report.json and checks it as `merge` does (``ReportInput``): its
    /// identity typed, every count a non-negative integer within the limits, every
    /// size bounded. A report out of range is an input error naming file and path.
    static func readReport(_ path: String, checked: Bool = true, runner: String = "fleetsim") throws(CLIError) -> JSONValue {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let hint = FileManager.default.fileExists(atPath: path + "/summary.json")
                ? "an explore --out directory: to compare two of them, add --seeds"
                : FileManager.default.fileExists(atPath: path + "/report.json") ? "a report directory: give \(path)/report.json"
                : "a directory: give a report.json, or two explore --out directories with --seeds"
            throw .input("\(path): expected a report.json, found \(hint)")
        }
        let value = try readJSON(path, "a report.json")
        // Another JSON file (a scenario, a summary.json) is named as such, not as a
        // report with every key missing.
        if value["fleetsimVersion"] == nil, value["simulated"] == nil {
            let what = value["fleet"] != nil ? "a scenario file (run it to get a report.json)"
                : value["format"] != nil ? "an explore summary.json (compare two explore --out directories with --seeds)"
                : "a JSON object without a report's keys (fleetsimVersion, simulated)"
            throw .input("\(path): expected a report.json (written by \(runner) run or merge), found \(what)")
        }
        if checked { try check(value, path) }
        return value
    }

    /// The report's keys and counts checked as `merge` checks a shard's.
    static func check(_ value: JSONValue, _ path: String) throws(CLIError) {
        do { _ = try ReportInput.checked(Merge.reportValue(value), name: path, rules: ReferenceWorld.mergeRules) } catch { throw .input(error.message) }
    }

    /// The largest report or summary read: 512 MiB (the default scenario's report is
    /// 1.7 MB; a report grows with its duration, a shard's with its busy seconds).
    static let maximumFileBytes = 512 << 20

    /// Reads and parses a JSON file; a missing or malformed file is an input error.
    static func readJSON(_ path: String, _ what: String) throws(CLIError) -> JSONValue {
        try parseJSON(try readBytes(path, what), path, what)
    }

    /// The bytes of a file of at most ``maximumFileBytes``; a missing file, a device or a
    /// larger file is an input error.
    static func readBytes(_ path: String, _ what: String) throws(CLIError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else {
            throw .input("\(path): expected \(what), found no readable file")
        }
        defer { try? handle.close() }
        // Bounded before reading, so a wrong path such as /dev/zero cannot exhaust memory:
        // a file's size is checked first; a device is no report.
        var status = stat()
        if stat(path, &status) == 0 {
            let kind = status.st_mode & S_IFMT
            guard kind != S_IFCHR && kind != S_IFBLK else { throw .input("\(path): expected \(what), found a device") }
            guard Int(status.st_size) <= maximumFileBytes else {
                throw .input("\(path): expected \(what), found a file larger than \(maximumFileBytes >> 20) MiB")
            }
        }
        guard let data = try? handle.read(upToCount: maximumFileBytes + 1) ?? Data() else {
            throw .input("\(path): expected \(what), found a read error")
        }
        guard data.count <= maximumFileBytes else {
            throw .input("\(path): expected \(what), found a file larger than \(maximumFileBytes >> 20) MiB")
        }
        return Array(data)
    }

    /// `bytes` parsed as JSON (an object); a malformed file is an input error naming the
    /// file, the JSON path, line and column.
    static func parseJSON(_ bytes: [UInt8], _ path: String, _ what: String) throws(CLIError) -> JSONValue {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw .input("\(path): \(error.path): expected \(what) (valid JSON: \(error.expected)), found \(error.found) at line \(error.line), column \(error.column)")
        }
        guard case .object = value else { throw .input("\(path): $: expected \(what) (an object), found \(value.foundDescription)") }
        return value
    }
}
