import Foundation
import Reports
import Scenario
import SimKernel
import Simulation

/// `fleetsim plan`: the capacity workflow. The smallest `backend.workers` (with `--push`,
/// then the smallest `backend.push.concurrency`) at which every expectation of the
/// scenario holds, found by ``PlanSearch`` over whole runs of the same seed.
struct Plan: Command {
    static let help = CommandHelp(
        name: "plan",
        abstract: "find the smallest backend.workers (and push concurrency) at which every expectation holds",
        arguments: [.init(name: "SCENARIO", text: "the scenario file (JSON); its expect list is what must hold")],
        options: ScenarioOptions.options(seed: true) + [
            .valued("jobs", "J", "probes run at once, one world each (a round probes J capacities)", default: "the number of cores"),
            .flag("push", "after the workers, also find the smallest backend.push.concurrency (each\nprovider's concurrent sends), with the workers at their answer"),
            .valued("max", "N", "the largest capacity tried", default: "4096 workers, 1000000 sends"),
            .valued("replications", "R", "probe each capacity at seeds S..S+R-1: it holds when every expectation's 95 %\ninterval across the seeds (Student's t) is within its limits", default: "1"),
            .valued("out", "DIR", "where plan.json goes; checked for writability before the first probe", default: "reports/plan-<scenario name>/"),
        ],
        discussion: """
        Every probe is a whole run of the scenario with the same seed, differing only
        in the capacity searched. A probe holds when no invariant is violated and every
        expectation passes conclusively (an inconclusive percentile, whose confidence
        interval straddles its limit, does not hold: as run --strict). The first round probes the scenario's own capacity and its
        halvings, later rounds its doublings until one holds; then the gap between the
        largest failing and the smallest holding capacity narrows, J probes a round,
        until they are neighbours: the answer held and one less failed, both as probed.
        More capacity is assumed never to hurt; a probe that contradicts it is reported.
        With --replications R each probe is R runs (seeds S..S+R-1, J runs at once)
        judged across the seeds as run --replications judges them: a probe whose
        interval across the seeds straddles a limit does not hold either.
        With --push the workers are searched with push capacity to spare (--max sends),
        then the push concurrency from the scenario's own, with the workers' answer.

        A probe's percentiles are judged by their 95 % intervals as run judges them
        (the API's waits by batch means: docs/report.md, Intervals), so a capacity
        whose interval straddles a limit is not an answer. While nothing holds, the
        search stops when two failing probes, one at least twice the other, show
        no improvement (an expectation's interval no nearer its limit, or the same
        invariant violations): that does not move with the capacity searched, and
        the plan says which.

        Prints each probe (capacity, API utilisation, queueing p99, 503s, verdict:
        what failed, or each expectation's value and interval when it holds) and the
        answer; with --scale, the scaled fleet it is for and its API requests per
        device (a full fleet's answer is not the scaled one times 1/scale). Writes
        DIR/plan.json with the same. Exit 0 with an answer, 1 when nothing up to
        --max holds or the search stopped (the failing expectations say why), 2 on
        bad input.
        """,
        examples: ["fleetsim plan scenarios/default.json --scale 0.1 --jobs 2",
                   "fleetsim plan scenarios/capacity.json --jobs 2 --push"]
    )

    var options: ScenarioOptions
    var jobs: Int
    var sizesStreams: Bool
    var maximum: Int?
    var replications: Int
    var out: String?
    var scenario: Scenario?

    init(_ parsed: ParsedArguments) throws(CLIError) {
        try parsed.noExtraPositionals(after: 1)
        options = try ScenarioOptions(parsed)
        jobs = try parsed.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw .usage("--jobs must be at least 1, found \(jobs)", command: "plan") }
        sizesStreams = parsed.flags.contains("push")
        maximum = try parsed.int("max")
        if let maximum, maximum < 1 { throw .usage("--max must be at least 1, found \(maximum)", command: "plan") }
        replications = try parsed.int("replications") ?? 1
        guard replications >= 1 else { throw .usage("--replications must be at least 1, found \(replications)", command: "plan") }
        out = parsed.options["out"]
    }

    mutating func validate() throws(CLIError) {
        let s = options.withSwarm(try options.load())
        try OutputDirectory.check(outputDirectory(s))
        try MemoryGuard.check(s, shard: .whole)
        // J probes at once hold J worlds: fewer at once when J of them do not fit.
        if let limit = MemoryGuard.smallestLimit() {
            let fit = max(1, limit.bytes / max(1, MemoryEstimate.bytes(s, shard: .whole)))
            if fit < jobs {
                eprint("plan: --jobs \(jobs) lowered to \(fit): \(fit) world(s) of this scenario fit in the available memory")
                jobs = fit
            }
        }
        scenario = s
    }

    func outputDirectory(_ s: Scenario) -> String { out ?? "reports/plan-\(Run.safeName(s.name))" }

    /// The capacity a search moves.
    enum Knob: String {
        case workers = "backend.workers"
        case pushConcurrency = "backend.push.concurrency"

        func set(_ value: Int, in s: inout Scenario) {
            switch self {
            case .workers: s.backend.workers = value
            case .pushConcurrency: s.backend.push.concurrency = value
            }
        }

        var ceiling: Int { self == .workers ? 4_096 : 1_000_000 }
    }

    func run(_ context: Context) throws(CLIError) -> Int32 {
        guard var scenario else { preconditionFailure("run() before validate()") }
        var searches: [Search] = []
        var knobs: [Knob] = [.workers]
        let ownPushConcurrency = scenario.backend.push.concurrency
        if sizesStreams {
            knobs.append(.pushConcurrency)
            // The workers are searched with push capacity to spare, so that an
            // expectation on the providers' sends does not make every worker count fail.
            Knob.pushConcurrency.set(maximum ?? Knob.pushConcurrency.ceiling, in: &scenario)
        }
        let seeds = replications > 1 ? "seeds \(scenario.seed)-\(scenario.seed &+ UInt64(replications - 1)) (replications)" : "seed \(scenario.seed)"
        say("plan \(scenario.name): \(HumanUnits.count(scenario.fleet.reduce(0) { $0 + $1.count })) devices, \(seeds), "
              + "\(scenario.expect.count) expectation(s), \(jobs) probe(s) a round")
        for knob in knobs {
            let start = knob == .workers ? scenario.backend.workers : ownPushConcurrency
            let search = PlanSearch(lowest: 1, highest: maximum ?? knob.ceiling, start: start, parallel: jobs)
            var probes: [PlanProbe] = []
            say("\n\(knob.rawValue):")
            say(PlanProbe.header)
            let base = scenario
            var stopReason: String?
            let outcome = search.run(stop: {
                stopReason = Self.unmoved(probes)
                return stopReason != nil
            }) { round in
                let results = PlanProbe.run(round.map { c in var s = base; knob.set(c, in: &s); return s }, jobs: jobs, replications: replications, engine: options.engine)
                for (c, r) in zip(round, results) {
                    var probe = r
                    probe.capacity = c
                    say(probe.row)
                    probes.append(probe)
                }
                return results.map(\.held)
            }
            if outcome.nonMonotone {
                say("note: a larger \(knob.rawValue) failed where a smaller one held (the run changed, not only its queue); the answer is the smallest that held with one less failing")
            }
            searches.append((knob, outcome, probes, stopReason))
            guard let answer = outcome.answer else { break }
            say("\(knob.rawValue) = \(answer)")
            knob.set(answer, in: &scenario)
        }
        let answered = searches.count == knobs.count && searches.allSatisfy { $0.outcome.answer != nil }
        let document = Self.document(scenario: scenario, options: options, replications: replications, searches: searches, answered: answered)
        let path = "\(outputDirectory(scenario))/plan.json"
        do { try AtomicFile.write(JSONWriter.encode(document), to: path) } catch { throw .input("cannot write \(path): \(error)") }
        if answered {
            let atLowest = searches.contains { $0.outcome.answer == 1 }
            say("\nAnswer: " + searches.map { "\($0.knob.rawValue) = \($0.outcome.answer!)" }.joined(separator: ", ")
                  + (atLowest ? " (every expectation holds; at 1 no expectation depends on this capacity)" : " (every expectation holds; one less fails)"))
            if let fleet = fleetText(scenario, searches) { say(fleet) }
        } else if let last = searches.last, let reason = last.stopReason {
            say("\nNo answer: stopped after \(last.probes.count) probe(s): \(reason); more \(last.knob.rawValue) cannot make it hold.")
        } else if let last = searches.last {
            say("\nNo answer: no \(last.knob.rawValue) up to \(maximum ?? last.knob.ceiling) makes every expectation hold.")
        }
        say("Plan: \(path)")
        return answered ? 0 : 1
    }

    /// One search's probes and outcome; `stopReason` when it stopped without an answer.
    typealias Search = (knob: Knob, outcome: PlanSearch.Outcome, probes: [PlanProbe], stopReason: String?)

    /// Why searching on is pointless, or nil: two failing probes, the larger at least
    /// twice the smaller, where what fails did not improve (an expectation's interval,
    /// or its value without one, no nearer its limits at the larger, or the same invariant violations): it does not
    /// depend on the capacity searched (a queue's figure improves with more capacity).
    static func unmoved(_ probes: [PlanProbe]) -> String? {
        let failed = probes.filter { !$0.held && $0.failures.count > 0 }
        guard let low = failed.min(by: { $0.capacity < $1.capacity }), let high = failed.max(by: { $0.capacity < $1.capacity }),
              high.capacity >= 2 * low.capacity else { return nil }
        if high.violations > 0 && high.violations == low.violations {
            return "\(HumanUnits.count(high.violations)) invariant violation(s) at both \(low.capacity) and \(high.capacity)"
        }
        for e in high.expectations where !e.passed {
            guard let before = low.expectations.first(where: { $0.metric == e.metric }), !before.passed,
                  let a = before.value, let b = e.value, distance(e) >= distance(before) else { continue }
            let how = e.verdict == .inconclusive ? "inconclusive (\(e.evidenceText ?? "no samples"))" : "failing"
            return "\(e.metric) is \(MetricText.format(a, path: e.metric)) at \(low.capacity) and \(MetricText.format(b, path: e.metric)) at "
                + "\(high.capacity), no nearer its limit, \(how)"
        }
        return nil
    }

    /// How far `e` is from passing: how far its interval's far end (its value without an
    /// interval; an open end is infinitely far) lies beyond its limits, 0 within them.
    static func distance(_ e: ExpectationJudgement) -> Double {
        let low = e.interval.map(\.low) ?? e.value ?? .infinity
        let high = e.interval.map { $0.high ?? .infinity } ?? e.value ?? .infinity
        return Swift.max(e.min.map { $0 - low } ?? 0, e.max.map { high - $0 } ?? 0, 0)
    }

    /// With `--scale`: the fleet the answer is for (`for the scaled fleet of 2,000 devices
    /// (--scale 0.05 of 40,000), 41.3 requests per device`), and that the full fleet's
    /// answer is not this times 1/scale (a larger pool queues less at the same load per
    /// worker: Erlang C); nil without `--scale`.
    func fleetText(_ scenario: Scenario, _ searches: [Search]) -> String? {
        guard let scale = options.scale else { return nil }
        let devices = scenario.fleet.reduce(0) { $0 + $1.count }
        let answerProbe = searches.first.flatMap { s in s.probes.first { $0.capacity == s.outcome.answer } }
        let perDevice = answerProbe.map { devices > 0 ? Double($0.requests) / Double(devices) : 0 }
        let full = Double(devices) / scale.factor
        return "For the scaled fleet of \(HumanUnits.count(devices)) devices (--scale \(scale.text); about \(HumanUnits.count(Int(full.rounded()))) unscaled)"
            + (perDevice.map { ", \(FixedDecimal.format($0, digits: 1) ?? "?") API requests per device in the run" } ?? "")
            + ". Not the full fleet's answer times 1/scale: a larger pool queues less at the same load per worker (Erlang C); plan the full fleet to know."
    }

    /// A line on stdout at once (unbuffered: a round can take minutes, and its rows should
    /// show as it ends, in a terminal, a file or a pipe).
    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    /// plan.json: the question, every probe, and the answer (null without one).
    static func document(scenario: Scenario, options: ScenarioOptions, replications: Int,
                         searches: [Search], answered: Bool) -> ReportValue {
        var answer: [String: ReportValue] = [:]
        for s in searches { if let a = s.outcome.answer { answer[s.knob.rawValue] = .count(a) } }
        return [
            "scenario": .string(scenario.name),
            "seed": .count(scenario.seed),
            "replications": .count(replications),
            "fleetsimVersion": .string(fleetsimVersion),
            "devices": .count(scenario.fleet.reduce(0) { $0 + $1.count }),
            "options": .string(options.replayArguments.joined(separator: " ")),
            "answer": answered ? .object(answer) : .null,
            "searches": .array(searches.map { s in
                [
                    "knob": .string(s.knob.rawValue),
                    "answer": s.outcome.answer.map { .count($0) } ?? .null,
                    "nonMonotone": .bool(s.outcome.nonMonotone),
                    "stopped": s.stopReason.map { .string($0) } ?? .null,
                    "probes": .array(s.probes.map(\.value)),
                ]
            }),
        ]
    }
}
