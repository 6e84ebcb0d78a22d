import Foundation
import Reports
import Scenario
import SimKernel
import Simulation

/// `fleetsim run`: one world, its four reports, and a console verdict CI can read.
struct Run: Command {
    static let help = CommandHelp(
        name: "run",
        abstract: "simulate a scenario; write report.json, report.md, report.html and junit.xml",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON)")],
        options: ScenarioOptions.options(seed: true) + [
            .valued("out", "DIR", "where the reports go; checked for writability before simulating", default: "reports/<scenario name>/"),
            .valued("shard", "K/N", "simulate only the devices whose id mod N is K, against 1/N of the\nbackend's capacity; combine the shards' reports with 'fleetsim merge'", default: "0/1 (the whole fleet)"),
            .valued("record-events", "FILE", "write every delivered event as a line 'MICROSECONDS DEVICE HASH DESCRIPTION'\n(DEVICE '-' for a fleet-wide event) to FILE, or to stdout for '-' (the summary\nthen goes to stderr); what 'fleetsim diverge --traces' compares"),
            .flag("record-requests", "also write DIR/requests.bin: each API request and push send as the backend saw it\n(arrival, endpoint or provider, service time), what 'fleetsim whatif' replays at\nother capacities; a shard (--shard) always writes it, for merge's pooled backend"),
            .flag("quiet", "no progress line and no wall-time line on stderr (there is no progress line\nanyway when stderr is not a terminal)"),
            .valued("replications", "R", "run seeds S..S+R-1 (S the scenario's seed or --seed): each seed's reports in\nDIR/seed-<s>/, and DIR/replications.json and .md judging each expectation by\nits 95 % interval across the seeds (Student's t)", default: "1"),
            Self.strictOption,
        ],
        discussion: """
        Exit 1 when an invariant was violated or an expectation failed: each failed
        expectation is printed with its value, its limit and the scenario file, each
        violation with a replay command for this binary. An expectation on a latency
        percentile is judged by the percentile's 95 % confidence interval from its n
        samples: pass, FAIL, or INCONCLUSIVE when the interval straddles the limit,
        printed with the interval but exit 1 only with --strict (docs/report.md). The
        interval's method is named beside it: the API's waits (backend.queueing, mean
        wait) depend on each other and get batch means over simulated time, with the
        queue's empty start cut as warm-up (INCONCLUSIVE, correlated or insufficient,
        when the run is too short for them); percentiles of one sample per device's
        event\(ReferenceWorld.reportSections.compactMap(\.sampleUnit).map { " or per \($0)" }.joined()) get order statistics. A
        run whose estimated memory exceeds what the process may use (Linux: the
        smallest of MemAvailable, RLIMIT_AS and the cgroup's memory.max) is refused up
        front (exit 2) with a hint to shard. A bad --out (empty, a dangling or looping
        link, a name over 255 bytes, a path too long) is refused before simulating.
        """,
        examples: ["fleetsim run scenarios/default.json --scale 0.5 --out reports/quick",
                   "fleetsim run scenarios/default.json --scale 0.1 --shard 0/2 --out shards/0",
                   "fleetsim run scenarios/default.json --scale 0.1 --shard 1/2 --out shards/1"]
    )

    var options: ScenarioOptions
    var out: String?
    var quiet: Bool
    var strict: Bool
    var shard: ShardPlan
    var recordEvents: String?
    /// Write `requests.bin` (``RequestLog``): asked for, or a shard's.
    var recordRequests: Bool
    var replications: Int
    var scenario: Scenario?

    init(_ parsed: ParsedArguments) throws(CLIError) {
        try parsed.noExtraPositionals(after: 1)
        options = try ScenarioOptions(parsed)
        out = parsed.options["out"]
        quiet = parsed.flags.contains("quiet")
        strict = parsed.flags.contains("strict")
        recordEvents = parsed.options["record-events"]
        replications = try parsed.int("replications") ?? 1
        guard replications >= 1 else { throw .usage("--replications must be at least 1, found \(replications)", command: "run") }
        if replications > 1, parsed.options["record-events"] != nil {
            throw .usage("--replications and --record-events do not go together (one event stream is one seed)", command: "run")
        }
        shard = .whole
        if let text = parsed.options["shard"] {
            guard let plan = ShardPlan(parsing: text) else {
                throw .usage("--shard expects K/N with 0 <= K < N (e.g. 2/4), found '\(text)'", command: "run")
            }
            shard = plan
        }
        recordRequests = parsed.flags.contains("record-requests") || !shard.isWhole
    }

    mutating func validate() throws(CLIError) {
        let s = options.withSwarm(try options.load())
        try OutputDirectory.check(outputDirectory(s))
        var outputs = InputGuard.set(outputDirectory(s), Self.files + (recordRequests ? [RequestLog.fileName] : []))
        if let recordEvents, recordEvents != "-" { outputs.append((option: "--record-events", file: recordEvents)) }
        try InputGuard.check(inputs: [(path: options.path, role: "the scenario")], outputs: outputs)
        try MemoryGuard.check(s, shard: shard)
        scenario = s
    }

    /// The files of the set `run` writes.
    static let files = ["report.json", "report.md", "report.html", "junit.xml"]

    func outputDirectory(_ s: Scenario) -> String {
        out ?? "reports/\(Self.safeName(s.name))"
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        guard let scenario else { preconditionFailure("run() before validate()") }
        guard replications > 1 else { return try runOne(scenario, outDir: outputDirectory(scenario), context).status }
        let root = outputDirectory(scenario)
        var outcomes: [RunOutcome] = []
        let seeds = (0..<UInt64(replications)).map { scenario.seed &+ $0 }
        for seed in seeds {
            var s = scenario
            s.seed = seed
            outcomes.append(try runOne(s, outDir: "\(root)/seed-\(seed)", context).outcome)
        }
        if !shard.isWhole {
            // A shard holds part of the fleet: its figures judge nothing across the seeds,
            // as a merged part's judge nothing (docs/report.md, "Intervals"). Each seed's
            // shard report merges with that seed's other shards.
            let violations = outcomes.reduce(UInt64(0)) { $0 + $1.violations }
            print("\(scenario.name) (shard \(shard.index)/\(shard.count)): \(replications) replications (seeds \(seeds[0])-\(seeds[seeds.count - 1])); "
                  + "\(violations) invariant violation(s); no judgement across the seeds of one shard: merge the shards' directories "
                  + "('\(context.runner) merge SHARD_DIR... --out DIR': each seed's shards merged, then judged across the seeds)")
            return violations == 0 ? 0 : 1
        }
        return try Replications.conclude(name: scenario.name, seeds: seeds, violations: outcomes.map(\.violations),
                                         expectations: outcomes.map(\.expectations), root: root, file: scenario.sourcePath, strict: strict)
    }

    /// One world at `scenario`'s seed, its report set in `outDir`, its console lines.
    func runOne(_ scenario: Scenario, outDir: String, _ context: Context) throws(CLIError) -> (status: Int32, outcome: RunOutcome) {
        let progress = !quiet && context.stderrIsTerminal

        let started = ContinuousClock.now
        let startedAt = Date().timeIntervalSince1970
        let world = options.engine.world(scenario, shard: shard)
        let recorder: EventLineWriter?
        if let recordEvents {
            guard let writer = EventLineWriter(path: recordEvents) else { throw .input("--record-events: cannot write '\(recordEvents)'") }
            recorder = writer
            world.observeEvents { writer.write($0) }
        } else {
            recorder = nil
        }
        let requests = try recordRequests ? RequestFile(outDir: outDir, scenario: scenario, shard: shard) : nil
        world.recordRequests(requests?.recorder)
        let steps: Int64 = 50
        for k in 1...steps {
            world.advance(until: SimTime(microseconds: world.end.microseconds / steps * k))
            if progress {
                FileHandle.standardError.write(Data("\r\(scenario.name): \(k * 100 / steps)% simulated, \(HumanUnits.count(world.eventsProcessed)) events".utf8))
            }
        }
        world.runToEnd()
        recorder?.close()
        try requests?.close()
        if progress { FileHandle.standardError.write(Data("\n".utf8)) }
        let wallSeconds = Self.seconds(started.duration(to: .now))

        let outcome: RunOutcome
        do { outcome = try world.report() } catch { throw .input("\(error)") }
        let (markdown, html) = ReportDocuments.markdownAndHTML(outcome, wallSeconds: wallSeconds, strict: strict)
        do {
            try ReportSet.write([("report.json", JSONWriter.utf8(outcome.report)), ("report.md", Array(markdown.utf8)),
                                 ("report.html", Array(html.utf8)),
                                 ("junit.xml", Array(ReportDocuments.junit(outcome, strict: strict,
                                                                           wall: .init(seconds: wallSeconds, start: Self.utc(startedAt), means: "this run's wall time")).utf8))],
                                to: outDir, moving: requests.map { [(RequestLog.fileName, $0.path)] } ?? [],
                                dropping: requests == nil ? [RequestLog.fileName] : [])
        } catch {
            requests?.remove()
            throw .input("cannot write the report: \(error)")
        }
        let undecided = outcome.expectations.filter { $0.verdict != .pass }
        let toStdout = recordEvents != "-"
        func print(_ line: String) { if toStdout { Swift.print(line) } else { eprint(line) } }
        let part = shard.isWhole ? "" : " (shard \(shard.index)/\(shard.count))"
        print("\(scenario.name)\(part): \(HumanUnits.count(world.deviceCount)) devices, \(HumanUnits.duration(microseconds: scenario.duration.microseconds)) simulated, "
              + "\(HumanUnits.count(world.eventsProcessed)) events; \(outcome.violations) invariant violation(s), "
              + Self.expectationCounts(outcome.expectations, strict: strict))
        for e in undecided { print(Self.verdictLine(e, file: scenario.sourcePath)) }
        if let samples = outcome.report.lookup("invariants.samples")?.arrayValue {
            for s in samples.prefix(5) {
                let time = s.lookup("time")?.doubleValue ?? 0
                print("  violation \(s.lookup("kind")?.stringValue ?? "") on device \(s.lookup("device")?.intValue ?? -1) at \(HumanUnits.duration(seconds: time)): \(s.lookup("detail")?.stringValue ?? "")")
                print("    " + ReplayCommand.text(executable: context.executable, scenario: options.path, seed: scenario.seed,
                                                  device: s.lookup("device")?.intValue ?? 0, timeSeconds: time, options: options.replayArguments))
            }
        }
        print("Report: \(outDir)/report.md (and report.json, report.html, junit.xml\(requests == nil ? "" : ", requests.bin"))")
        if !quiet { eprint("wall time \(HumanUnits.duration(seconds: wallSeconds)); memory estimated before the run \(MemoryGuard.megabytes(MemoryEstimate.bytes(scenario, shard: shard))) MB") }
        return (outcome.passed(strict: strict) ? 0 : 1, outcome)
    }

    /// `--strict`, shared by run, explore and merge.
    static let strictOption = CommandHelp.Option.flag(
        "strict", "count an INCONCLUSIVE expectation (a percentile whose 95 % confidence\ninterval straddles its limit) as failed: exit 1")

    /// `2 failed expectation(s).`, and when some were inconclusive
    /// `0 failed expectation(s), 1 inconclusive (not a failure without --strict).`
    static func expectationCounts(_ all: [ExpectationResult], strict: Bool) -> String {
        let failed = all.filter { $0.isFailure(strict: strict) }.count
        let inconclusive = all.filter { $0.verdict == .inconclusive }.count
        guard inconclusive > 0 else { return "\(failed) failed expectation(s)." }
        return "\(failed) failed expectation(s), \(inconclusive) inconclusive ("
            + (strict ? "counted as failed: --strict)." : "not a failure without --strict).")
    }

    /// `FAIL expectation latency.x.p95 = 5.0 h, limit max 4.0 h (scenarios/x.json)`:
    /// the verdict, the metric, its value and its limit in the metric's unit, for a
    /// percentile its n and 95 % confidence interval
    /// (`INCONCLUSIVE expectation latency.x.p95 = 60.0 h, limit max 72.0 h; n = 83; 95 % CI 51.0-91.0 h straddles 72.0 h`),
    /// and the file (when known: a merged report has only the scenario's name).
    static func verdictLine(_ e: ExpectationResult, file: String?) -> String {
        let limits = [e.minShown.map { "min \($0)" }, e.maxShown.map { "max \($0)" }].compactMap { $0 }
        let evidence = e.interval == nil && e.batches == nil ? "" : "; " + (e.evidence(straddling: true) ?? "")
        return "\(e.verdict == .inconclusive ? "INCONCLUSIVE" : "FAIL") expectation \(e.metric) = \(MetricText.format(e.value, path: e.metric)), "
            + "limit \(limits.joined(separator: ", "))\(evidence)\(file.map { " (\($0))" } ?? "")"
    }

    /// `YYYY-MM-DDTHH:MM:SS` (UTC) of unix seconds: junit.xml's timestamp.
    static func utc(_ unixSeconds: Double) -> String {
        String(UTCTimestamp.format(Int64(unixSeconds.rounded(.down))).dropLast())
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// A scenario name as a directory name: ASCII letters, digits, `-`, `_`, `.`.
    static func safeName(_ name: String) -> String {
        let mapped = name.unicodeScalars.map { s -> Character in
            (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "." ? Character(s) : "-"
        }
        let text = String(mapped).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return text.isEmpty ? "scenario" : text
    }
}

/// `requests.bin` streamed as the run goes (``RequestRecorder``): staged beside the report
/// directory, moved into the set with the reports (``ReportSet/write(_:to:moving:dropping:writeFile:between:)``).
final class RequestFile {
    let path: String
    let recorder: RequestRecorder
    private let file: UnsafeMutablePointer<FILE>
    private var failed = false

    /// The header names the whole scenario's backend, whatever the shard's part.
    init(outDir: String, scenario: Scenario, shard: ShardPlan) throws(CLIError) {
        do { path = try ReportSet.stagingPath(for: outDir, name: RequestLog.fileName) } catch { throw .input("cannot write the request log beside '\(outDir)': \(error)") }
        guard let file = fopen(path, "wb") else { throw .input("cannot write the request log '\(path)': \(String(cString: strerror(errno)))") }
        self.file = file
        let b = scenario.backend
        let header = RequestLog.Header(durationMicroseconds: scenario.duration.microseconds, workers: b.workers, queueLimit: b.queueLimit,
                                       streams: b.push.concurrency, streamQueueLimit: b.push.queueLimit)
        var sink: (([UInt8]) -> Void)?
        recorder = RequestRecorder(header: header, shard: shard.index) { sink?($0) }
        sink = { [unowned self] block in
            if block.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, self.file) }) != block.count { self.failed = true }
        }
    }

    /// The last block written and the file closed; a short write is an error.
    func close() throws(CLIError) {
        recorder.finish()
        if fclose(file) != 0 { failed = true }
        if failed {
            remove()
            throw .input("cannot write the request log '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    func remove() { unlink(path) }
}
