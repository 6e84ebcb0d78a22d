import Foundation
import Reports
import Scenario
import Simulation

/// `fleetsim explore`: many seeds in parallel, each world single-threaded on its own
/// worker thread; results are printed in seed order, so the output is deterministic.
struct Explore: Command {
    static let help = CommandHelp(
        name: "explore",
        abstract: "run many seeds in parallel; print every failing seed with its replay command",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON)")],
        options: [
            .valued("seeds", "N", "how many seeds to run (or --replications)"),
            .valued("replications", "R", "run R seeds as --seeds R does, and judge each expectation by its 95 %\ninterval across them (Student's t), as run --replications does"),
            .valued("first", "S", "the first seed; seeds S, S+1, ..., S+N-1 run", default: "1"),
            .valued("jobs", "J", "worker threads, one world each", default: "the number of cores"),
        ] + ScenarioOptions.options(seed: false) + [
            .valued("out", "DIR", "also write DIR/summary.json and DIR/junit.xml (checked for\nwritability before the first seed runs)"),
            Run.strictOption,
        ],
        discussion: """
        Prints each failing seed with its violation kinds and failed expectations and
        the exact replay command, then a table per violation kind (seeds that caught
        it, the first, and the wall time one job spends up to it) and one per
        known-bug variant run (the kind that names its bug, how many seeds caught it,
        the first, and the wall time up to it). A progress line (seeds done, failing
        so far, ETA: estimated when a seed is done, from the pace so far, and counting
        down until the next) goes to stderr when it is a terminal.

        summary.json (keys sorted, the same bytes for the same seeds): per-seed
        verdicts; per violation kind and per variant how many seeds caught it and the
        first seed; and for every metric of the per-seed report.json (latency
        percentiles, rates, counters) its per-seed values, mean and 95 % confidence
        interval across seeds: the Student t interval mean ± t(0.975, n-1)·s/√n, s the
        sample standard deviation over the n seeds with data. junit.xml has one
        testcase per seed, its time the seed's wall time (the suite's: their sum);
        a failure carries its replay command.
        A seed whose only problem is an inconclusive expectation (a percentile whose
        confidence interval straddles its limit) is printed as INCONCLUSIVE and
        passes, unless --strict. With --replications R the seeds are also
        replications: each expectation's figure, one per seed, is judged by its
        interval across them (printed after the seeds, and summary.json's
        `replications`), and a failure across the seeds (an inconclusive one with
        --strict) exits 1 too. Exit 1 if any seed failed. --swarm ranges are in docs/cli.md (Swarm testing).
        """,
        examples: ["fleetsim explore scenarios/races/no-synchronize.json --seeds 20 --variants none --out explore/clean",
                   "fleetsim explore scenarios/races/no-synchronize.json --seeds 20 --out explore/buggy"]
    )

    var options: ScenarioOptions
    var count: Int
    /// `--replications`: judge each expectation across the seeds too.
    var replications: Bool
    var first: UInt64
    var jobs: Int
    var out: String?
    var strict: Bool
    var scenario: Scenario?

    init(_ parsed: ParsedArguments) throws(CLIError) {
        try parsed.noExtraPositionals(after: 1)
        options = try ScenarioOptions(parsed)
        let seeds = try parsed.int("seeds"), reps = try parsed.int("replications")
        if let seeds, let reps, seeds != reps {
            throw .usage("--seeds \(seeds) and --replications \(reps) disagree (give one: --replications R runs R seeds)", command: "explore")
        }
        guard let n = seeds ?? reps else { throw .usage("explore needs --seeds N or --replications R", command: "explore") }
        count = n
        replications = reps != nil
        guard count > 0 else { throw .usage("--\(reps != nil ? "replications" : "seeds") must be at least 1, found \(count)", command: "explore") }
        if replications, count < 2 { throw .usage("--replications must be at least 2 (an interval across seeds needs two), found \(count)", command: "explore") }
        first = try parsed.uint64("first") ?? 1
        guard first <= UInt64.max - UInt64(count - 1) else { throw .usage("--first \(first) with --seeds \(count) goes past the largest seed", command: "explore") }
        jobs = try parsed.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw .usage("--jobs must be at least 1, found \(jobs)", command: "explore") }
        out = parsed.options["out"]
        strict = parsed.flags.contains("strict")
    }

    mutating func validate() throws(CLIError) {
        scenario = try options.load()
        if let out {
            try OutputDirectory.check(out)
            try InputGuard.check(inputs: [(path: options.path, role: "the scenario")], outputs: InputGuard.set(out, ["summary.json", "junit.xml"]))
        }
    }

    /// One seed's verdict and figures.
    struct SeedResult: Sendable {
        var seed: UInt64
        var violations: UInt64
        var byKind: [(kind: String, count: Int64)]
        /// Expectations that failed (with `--strict`, inconclusive ones too).
        var failedExpectations: [ExpectationResult]
        /// Inconclusive expectations that are not failures (without `--strict`).
        var inconclusiveExpectations: [ExpectationResult] = []
        /// Every expectation as judged on this seed (what `--replications` judges across seeds).
        var expectations: [ExpectationResult] = []
        var firstDevice: Int64?
        var firstTime: Double?
        /// The report's metrics (``ReportMetrics/leaves(of:)``), sorted by path.
        var metrics: [(path: String, value: ReportValue)]
        var wallSeconds: Double
        /// Why the report could not be built (a failure, never a pass).
        var reportError: String?
        var passed: Bool { violations == 0 && failedExpectations.isEmpty && reportError == nil }
    }

    /// Results by seed index, filled by the workers.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private(set) var slots: [SeedResult?]
        private(set) var done = 0
        private(set) var failing = 0
        /// When the last seed was done (the ETA is estimated then).
        private var lastDone: ContinuousClock.Instant
        init(count: Int, started: ContinuousClock.Instant) {
            slots = Array(repeating: nil, count: count)
            lastDone = started
        }
        func take() -> Int? { lock.withLock { defer { next += 1 }; return next < slots.count ? next : nil } }
        func store(_ r: SeedResult, at i: Int) {
            lock.withLock {
                slots[i] = r
                done += 1
                if !r.passed { failing += 1 }
                lastDone = .now
            }
        }
        func progress() -> (done: Int, failing: Int, lastDone: ContinuousClock.Instant) { lock.withLock { (done, failing, lastDone) } }
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        guard let scenario else { preconditionFailure("run() before validate()") }
        let (first, swarm, count, strict, engine) = (self.first, options.swarm, self.count, self.strict, options.engine)
        let started = ContinuousClock.now
        let startedAt = Date().timeIntervalSince1970
        let results = Results(count: count, started: started)
        let done = DispatchGroup()
        for _ in 0..<min(jobs, count) {
            done.enter()
            Thread {
                while let i = results.take() {
                    var s = scenario
                    s.seed = first &+ UInt64(i)
                    if swarm { s = Swarm.apply(to: s) }
                    results.store(Self.evaluate(s, strict: strict, engine: engine), at: i)
                }
                done.leave()
            }.start()
        }
        if context.stderrIsTerminal {
            func line() -> String {
                let p = results.progress()
                return Self.progressLine((p.done, p.failing), total: count, estimatedAt: Run.seconds(started.duration(to: p.lastDone)),
                                         elapsed: Run.seconds(started.duration(to: .now)))
            }
            while done.wait(timeout: .now() + 0.5) == .timedOut {
                FileHandle.standardError.write(Data(("\r" + line()).utf8))
            }
            FileHandle.standardError.write(Data(("\r" + line() + "\n").utf8))
        } else {
            done.wait()
        }
        let seeds = results.slots.map { $0! }

        var failed = 0
        for r in seeds where !r.passed {
            failed += 1
            let kinds = r.byKind.filter { $0.count > 0 }.map { "\($0.kind) x\($0.count)" } + r.failedExpectations.map { "expect \($0.metric)" }
                + (r.reportError.map { ["no report: \($0)"] } ?? [])
            print("seed \(r.seed): FAIL  \(kinds.joined(separator: ", "))")
            for e in r.failedExpectations { print("  " + Run.verdictLine(e, file: options.path)) }
            if let command = replayCommand(r, executable: context.executable) { print("  " + command) }
        }
        let inconclusive = seeds.filter { $0.passed && !$0.inconclusiveExpectations.isEmpty }
        for r in inconclusive {
            print("seed \(r.seed): INCONCLUSIVE  \(r.inconclusiveExpectations.map { "expect \($0.metric)" }.joined(separator: ", "))")
            for e in r.inconclusiveExpectations { print("  " + Run.verdictLine(e, file: options.path)) }
        }
        print("\nexplored \(count) seed(s) from \(first)\(swarm ? " with swarm parameters" : ""): \(count - failed) passed, \(failed) failed"
              + (inconclusive.isEmpty ? "" : " (\(inconclusive.count) passed with an inconclusive expectation: not a failure without --strict)"))
        // Across the seeds (--replications): each expectation's interval over the seeds
        // that gave a report (a seed without one has no figures to judge).
        var across: [ExpectationResult]?
        if replications {
            let judged = Replications.judge(expectations: seeds.filter { $0.reportError == nil }.map(\.expectations)).map(\.judgement)
            print("\nacross the \(count) seeds (replications): " + Run.expectationCounts(judged, strict: strict))
            for e in judged where e.verdict != .pass { print("  " + Run.verdictLine(e, file: options.path)) }
            across = judged
        }
        var summary = ExploreSummary(scenario: scenario, variantKinds: context.engine.variantKinds, file: options.path, options: options.replayArguments, first: first, seeds: seeds)
        summary.replications = across
        // How fast a kind is caught: the wall time of the seeds up to its first one, as
        // one job would spend it (console only: summary.json holds no wall time).
        func spent(upTo seed: UInt64) -> String {
            HumanUnits.duration(seconds: seeds.prefix { $0.seed <= seed }.reduce(0) { $0 + $1.wallSeconds })
        }
        let kinds = summary.kinds
        if !kinds.isEmpty {
            print("")
            let rows = kinds.map { k in [k.kind, String(k.violations), String(k.seeds), String(k.firstSeed), spent(upTo: k.firstSeed)] }
            print(MarkdownTable.render(header: ["invariant", "violations", "seeds failing", "first seed", "time to first (1 job)"], rows: rows), terminator: "")
        }
        // Per known-bug variant: did its own kind catch it, on how many seeds, how soon.
        let variants = summary.variants
        if !variants.isEmpty {
            print("")
            let rows = variants.map { v in
                [v.name, v.kind, "\(v.caught.count) of \(count)", v.caught.first.map(String.init) ?? "not caught",
                 v.caught.first.map { spent(upTo: $0) } ?? "-"]
            }
            print(MarkdownTable.render(header: ["variant", "caught as", "seeds caught", "first seed", "time to first (1 job)"], rows: rows), terminator: "")
        }
        if let out {
            do {
                try ReportSet.write([("summary.json", JSONWriter.utf8(summary.document)),
                                     ("junit.xml", Array(summary.junit(startedAt: Run.utc(startedAt), replay: { replayCommand($0, executable: context.executable) }).utf8))], to: out)
            } catch {
                throw .input("cannot write the summary: \(error)")
            }
            print("Summary: \(out)/summary.json (and junit.xml)")
        }
        return failed == 0 && !(across ?? []).contains { $0.isFailure(strict: strict) } ? 0 : 1
    }

    /// The replay command of a seed's first violation, for this binary.
    func replayCommand(_ r: SeedResult, executable: String) -> String? {
        guard let device = r.firstDevice, let time = r.firstTime else { return nil }
        return ReplayCommand.text(executable: executable, scenario: options.path, seed: r.seed, device: device,
                                  timeSeconds: time, options: options.replayArguments)
    }

    /// `explore: 37/200 seeds, 2 failing, ETA 3.2 min`
    static func progressLine(_ p: (done: Int, failing: Int), total: Int, estimatedAt: Double, elapsed: Double) -> String {
        let eta = remaining(done: p.done, total: total, estimatedAt: estimatedAt, elapsed: elapsed)
        return "explore: \(p.done)/\(total) seeds, \(p.failing) failing, " + (eta.map { "ETA " + HumanUnits.duration(seconds: $0) } ?? "ETA unknown") + "   "
    }

    /// Seconds left, estimated from completed work only: at `estimatedAt` (seconds from
    /// the start to the last seed done) the seeds left at the pace so far, less the time
    /// since, never below 0. Between completions it counts down with the clock (it grew
    /// while a seed ran, when the elapsed time was divided by a count that had not
    /// moved). Nil before the first seed is done.
    static func remaining(done: Int, total: Int, estimatedAt: Double, elapsed: Double) -> Double? {
        guard done > 0 else { return nil }
        return Swift.max(0, estimatedAt / Double(done) * Double(total - done) - (elapsed - estimatedAt))
    }

    static func evaluate(_ scenario: Scenario, strict: Bool, engine: Engine = .reference) -> SeedResult {
        let started = ContinuousClock.now
        let world = engine.world(scenario)
        world.runToEnd()
        let outcome: RunOutcome
        do { outcome = try world.report() } catch {
            return SeedResult(seed: scenario.seed, violations: 0, byKind: [], failedExpectations: [], metrics: [],
                              wallSeconds: Run.seconds(started.duration(to: .now)), reportError: "\(error)")
        }
        let kinds = outcome.report.lookup("invariants.byKind")?.objectValue ?? [:]
        let sample = outcome.report.lookup("invariants.samples.0")
        return SeedResult(seed: scenario.seed, violations: outcome.violations,
                          byKind: kinds.keys.sorted().map { (kind: $0, count: kinds[$0]?.intValue ?? 0) },
                          failedExpectations: outcome.expectations.filter { $0.isFailure(strict: strict) },
                          inconclusiveExpectations: outcome.expectations.filter { $0.verdict == .inconclusive && !$0.isFailure(strict: strict) },
                          expectations: outcome.expectations,
                          firstDevice: sample?.lookup("device")?.intValue, firstTime: sample?.lookup("time")?.doubleValue,
                          metrics: ReportMetrics.leaves(of: outcome.report), wallSeconds: Run.seconds(started.duration(to: .now)))
    }
}
