import Foundation
import SimKernel
import Scenario
import Simulation
import Reports

/// `fleetsim shrink`: from a run that violates an invariant, search for a smaller
/// scenario that still violates the same kind, and write it.
///
/// The search edits the scenario file's JSON tree (so the written file keeps the
/// user's keys and units) and judges each candidate by one deterministic run:
/// a candidate is kept when its run still has a violation of the target kind, on any
/// device. Greedy, QuickCheck-style passes repeat until none makes progress: drop
/// cohorts (delta debugging, Zeller's ddmin) and shrink each cohort's `count`, shorten
/// the run to just after the first violation (then halve it), start the run later
/// (whole days, then hours, with faults and `lastTestDaysAgo` moved so the story keeps
/// its dates), and drop faults and broadcasts (ddmin). Candidates are tried in a
/// fixed order, so the same inputs give the same file, unless the time limit stops
/// the search first (the summary says so).
struct Shrink: Command {
    static let help = CommandHelp(
        name: "shrink",
        abstract: "search for a smaller scenario that still fails with the same violation kind",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON) of a failing run")],
        options: [
            .valued("seed", "N", "the failing run's seed", default: "the file's seed"),
            ScenarioOptions.scaleOption,
            .valued("variants", "LIST", "known-bug variants, as for run (\"none\" for the correct logic);\nwritten into the shrunk file's logic.variants", default: "the file's list"),
            .valued("kind", "K", "the violation kind to keep", default: "the kind of the run's first violation"),
            .valued("out", "FILE", "where to write the shrunk scenario", default: "next to the input, NAME.shrunk.json"),
            .valued("max-seconds", "S", "stop searching after S seconds of wall time; the best scenario\nfound so far is written", default: "120"),
            .valued("max-runs", "R", "stop searching after R runs", default: "2000"),
            .flag("keep-seed", "never change the seed; without it, when no fleet of at most 10 devices\nfails within a day under seed N, the next 200 seeds are tried as a\nlast resort (the summary says so)"),
        ],
        discussion: """
        From a run that violates an invariant, searches for a smaller scenario that still
        violates the same kind (fewer cohorts and devices, a shorter run that starts later,
        fewer faults), writes it, and prints its replay command. Each candidate is one
        deterministic run, tried in a fixed order, so the same inputs give the same file
        (unless the time limit stops the search first: the summary says so).
        Exit codes: 0 a smaller failing scenario was written, 1 the run violates no
        invariant (or not --kind), 2 bad usage or a bad scenario. See docs/shrink.md.
        """,
        examples: ["fleetsim shrink scenarios/races/ignore-410.json --seed 1"]
    )

    static let defaultMaxSeconds = 120.0
    static let defaultMaxRuns = 2000
    /// Counts up to this are each tried before halving.
    static let smallCounts = 10
    /// The fleet a shrunk race aims at: two phones hold any race between two events
    /// (docs/shrink.md); above it the small-world pass looks for a fleet of its own.
    static let fewestDevices = 2
    /// Device-days above which the run is shortened before the fleet shrinks (the
    /// races have at most 1,200; the default scenario 70,000).
    static let largeDeviceDays = 10_000.0
    /// Seeds tried after the user's when no small fleet of it fails.
    static let otherSeedCount = 200

    var path: String
    var seedOption: UInt64?
    /// `--scale`: the search starts from the scaled fleet, whose counts the shrunk file holds.
    var scale: (text: String, factor: Double)?
    var variants: [String]?
    var kindOption: String?
    var out: String
    var maxSeconds: Double
    var maxRuns: Int
    var keepSeed: Bool
    var loaded: Scenario?
    /// The logic set the runs simulate.
    var engine: Engine

    init(_ parsed: ParsedArguments) throws(CLIError) {
        path = try parsed.positional(0, "SCENARIO file")
        try parsed.noExtraPositionals(after: 1)
        maxSeconds = try parsed.double("max-seconds") ?? Self.defaultMaxSeconds
        guard maxSeconds > 0 else { throw .usage("--max-seconds must be greater than 0, found \(parsed.options["max-seconds"] ?? "")", command: "shrink") }
        maxRuns = try parsed.int("max-runs") ?? Self.defaultMaxRuns
        guard maxRuns > 0 else { throw .usage("--max-runs must be greater than 0, found \(maxRuns)", command: "shrink") }
        engine = parsed.engine
        if let list = parsed.options["variants"] { variants = try ScenarioOptions.variants(list, command: "shrink", engine: parsed.engine) }
        let kinds = ViolationKind.allCases.map(\.rawValue)
        kindOption = parsed.options["kind"]
        if let kind = kindOption, !kinds.contains(kind) {
            throw .usage("--kind: unknown violation kind '\(kind)'; known: \(kinds.joined(separator: ", "))", command: "shrink")
        }
        out = parsed.options["out"] ?? Self.defaultOutput(for: path)
        guard URL(fileURLWithPath: out).standardizedFileURL != URL(fileURLWithPath: path).standardizedFileURL else {
            throw .usage("--out must differ from the input scenario (\(path)): shrink never overwrites it", command: "shrink")
        }
        seedOption = try parsed.uint64("seed")
        scale = try ScenarioOptions.scale(parsed)
        if let seed = seedOption, seed > 1 << 53 { throw .usage("--seed must be at most 2^53 (9007199254740992), found \(seed)", command: "shrink") }
        keepSeed = parsed.flags.contains("keep-seed")
    }

    mutating func validate() throws(CLIError) {
        try OutputDirectory.checkFile(out)
        try InputGuard.check(inputs: [(path: path, role: "the scenario")], outputs: [(option: "--out", file: out)])
        let scenario = try ScenarioOptions.load(path, engine: engine)
        loaded = try scale.map { scale throws(CLIError) in try ScenarioOptions.scaled(scenario, by: scale, command: "shrink") } ?? scenario
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        guard let loaded else { preconditionFailure("run() before validate()") }
        // The file decoded just now, so it reads and parses again.
        guard let data = FileManager.default.contents(atPath: path), let tree = try? JSONParser.parse([UInt8](data)) else {
            throw .input("\(path): cannot be read again")
        }
        let seed = seedOption ?? loaded.seed

        let started = ContinuousClock.now
        var start = tree.setting("seed", .integer(Int64(seed)))
        if scale != nil {
            for (i, cohort) in loaded.fleet.enumerated() { start = Tree.settingCount(start, i, cohort.count) }
        }
        if let variants {
            let logic = start["logic"] ?? .object([])
            start = start.setting("logic", logic.setting("variants", .array(variants.map { .string($0) })))
        }
        guard let first = Self.simulate(start, file: out, engine: engine) else {
            throw .input("\(path): the scenario cannot be run")
        }
        let failing = first.counts.filter { $0.count > 0 }
        let described = "\(path)\(scale.map { " at --scale \($0.text)" } ?? "") with seed \(seed)\(variants.map { $0.isEmpty ? " and the correct logic" : " and variants \($0.joined(separator: ","))" } ?? "")"
        guard !failing.isEmpty else {
            print("\(described) violates no invariant: nothing to shrink.")
            return 1
        }
        let kind = kindOption ?? first.samples.first?.kind ?? failing[0].kind
        guard let initial = first.sample(of: kind) else {
            print("\(described) violates no \(kind); it violates \(failing.map { "\($0.kind) x\($0.count)" }.joined(separator: ", ")).")
            return 1
        }
        print("\(described) violates \(failing.map { "\($0.kind) x\($0.count)" }.joined(separator: ", ")); shrinking while \(kind) still fails.")

        let annotated = start.setting("description", .string(
            "Shrunk by \(context.runner) shrink from \(path)\(scale.map { " at --scale \($0.text)" } ?? ""), seed \(seed), keeping \(kind). \(tree["description"]?.stringText ?? "")"
                .trimmingCharacters(in: .whitespaces)))
        // Every candidate is run exactly as it will be written. Sorted keys reorder the
        // options of a categorical choice (drawn in file order), so the sorted input is
        // run first; when that changes the verdict, the file keeps the input's key order.
        var sortKeys = true
        var original = annotated.withSortedKeys
        var origin = initial
        var runs = 1
        if original != annotated, maxRuns < 2 {
            // No run left to try the sorted input: write what was run.
            sortKeys = false
            original = annotated
        } else if original != annotated {
            runs += 1
            if let sample = Self.simulate(original, file: out, engine: engine)?.sample(of: kind) {
                origin = sample
            } else {
                sortKeys = false
                original = annotated
                print("Note: with its keys sorted, the scenario no longer violates \(kind) (sorting reorders the options of categorical choices, which are drawn in file order), so the shrunk file keeps the input's key order.")
            }
        }
        let search = Search(tree: original, failure: origin, kind: kind, file: out, maxRuns: maxRuns - runs,
                            deadline: started + .milliseconds(Int64(maxSeconds * 1000)), engine: engine)
        search.sortKeys = sortKeys
        search.runsBefore = runs
        search.allowSeedChange = !keepSeed
        search.run()
        let finalSeed = Tree.seed(search.tree)

        do {
            try AtomicFile.write(search.tree.text(sortingKeys: sortKeys), to: out)
        } catch {
            eprint("error: cannot write the shrunk scenario: \(error)")
            return 2
        }
        // The written file, read back like any scenario, must decode and fail the same way.
        let confirmed: Sample
        let end: Int64
        do {
            let scenario = try ScenarioDecoder.load(path: out, vocabulary: engine.vocabulary)
            end = scenario.duration.microseconds / 1_000_000
            guard let sample = Self.simulate(scenario, engine: engine)?.sample(of: kind) else {
                eprint("error: \(out) was written but no longer violates \(kind) when read back")
                return 2
            }
            confirmed = sample
        } catch {
            eprint("error: the shrunk scenario does not decode: \(error)")
            return 2
        }

        let wall = started.duration(to: .now)
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        let before = Self.Measure(original), after = Self.Measure(search.tree)
        let stop = search.stoppedBy.map { "; " + $0.summary } ?? ""
        print("\nShrunk in \(search.runs + runs) runs (\(search.accepted) kept), \(String(format: "%.1f", seconds)) s\(stop):")
        var rows = [["cohorts", "\(before.cohorts)", "\(after.cohorts)"], ["devices", "\(before.devices)", "\(after.devices)"],
                    ["duration", before.duration.description, after.duration.description]]
        if finalSeed != seed { rows.append(["seed", "\(seed)", "\(finalSeed) (no small fleet of seed \(seed) fails within a day)"]) }
        if before.start != after.start { rows.append(["start", UTCTimestamp.format(before.start), UTCTimestamp.format(after.start)]) }
        rows.append(["faults", "\(before.faults)", "\(after.faults)"])
        if before.broadcasts > 0 { rows.append(["broadcasts", "\(before.broadcasts)", "\(after.broadcasts)"]) }
        for row in rows { print("  " + row[0].padding(toLength: 10, withPad: " ", startingAt: 0) + " \(row[1]) -> \(row[2])") }
        print("Wrote \(out)")
        let t = confirmed.time / 1_000_000
        print("Device \(confirmed.device) violates \(kind) at \(t) s: \(confirmed.detail)")
        // The window of run's replay commands, cut at the shrunk run's end (a --to past
        // it replays to the end with a note).
        let command = [context.executable, "replay", out, "--seed", "\(finalSeed)", "--device", "\(confirmed.device)",
                       "--from", "\(max(0, t - 300))s", "--to", "\(min(t + 60, end))s"]
        print("Replay: " + Shell.command(command))
        return 0
    }

    /// What ended the search before the passes ran out of progress. Only the time limit
    /// makes the result depend on the machine: the run budget counts deterministic runs.
    enum Stop: Equatable {
        /// `--max-runs`, counting every run including the input's.
        case runBudget(Int)
        /// `--max-seconds` of wall time.
        case timeLimit

        var summary: String {
            switch self {
            case .runBudget(let runs):
                "stopped by the run budget (\(runs) runs): a larger --max-runs may shrink further; the result is the same on any machine"
            case .timeLimit:
                "stopped by the time limit: a longer search may shrink further, and the time limit makes the result depend on the machine's speed"
            }
        }
    }

    /// `dir/name.json` -> `dir/name.shrunk.json`.
    static func defaultOutput(for path: String) -> String {
        path.hasSuffix(".json") ? String(path.dropLast(5)) + ".shrunk.json" : path + ".shrunk.json"
    }

    // MARK: - One run

    /// A violation of the report (every violated kind has one: report.json keeps samples
    /// of each).
    struct Sample {
        var kind: String
        var device: Int
        /// Microseconds since the start.
        var time: Int64
        var detail: String
    }

    struct RunResult {
        /// Every kind, sorted by name.
        var counts: [(kind: String, count: Int64)]
        /// The report's samples (some of every kind it violates), in time order.
        var samples: [Sample]
        func count(of kind: String) -> Int64 { counts.first { $0.kind == kind }?.count ?? 0 }
        func sample(of kind: String) -> Sample? { samples.first { $0.kind == kind } }
    }

    /// Runs a scenario tree to its end; nil when it does not decode (a candidate the
    /// file format does not allow).
    static func simulate(_ tree: JSONValue, file: String, engine: Engine) -> RunResult? {
        guard let scenario = try? ScenarioDecoder.decode(tree, file: file, vocabulary: engine.vocabulary) else { return nil }
        return simulate(scenario, engine: engine)
    }

    static func simulate(_ scenario: Scenario, engine: Engine) -> RunResult? {
        let world = engine.world(scenario)
        world.runToEnd()
        guard let report = try? world.report().report else { return nil }
        let byKind = report.lookup("invariants.byKind")?.objectValue ?? [:]
        let counts = byKind.keys.sorted().map { (kind: $0, count: byKind[$0]?.intValue ?? 0) }
        let samples = (report.lookup("invariants.samples")?.arrayValue ?? []).compactMap { s -> Sample? in
            guard let device = s.lookup("device")?.intValue, let time = s.lookup("time")?.doubleValue else { return nil }
            return Sample(kind: s.lookup("kind")?.stringValue ?? "", device: Int(device), time: Int64((time * 1_000_000).rounded()),
                          detail: s.lookup("detail")?.stringValue ?? "")
        }
        return RunResult(counts: counts, samples: samples)
    }
}
