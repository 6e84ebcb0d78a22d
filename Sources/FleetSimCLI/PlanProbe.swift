import Foundation
import Reports
import Scenario
import Simulation

/// One run of `fleetsim plan`: a capacity, what the backend did at it, and whether
/// every expectation held.
struct PlanProbe: Sendable {
    var capacity = 0
    var held: Bool
    /// Mean busy API workers over the run / workers (nil when the report has no such figure).
    var utilisation: Double?
    /// `backend.queueing.p99`, seconds (nil: no request waited for a worker's answer).
    var queueingP99: Double?
    /// `backend.rejected`: requests answered 503 (queue full).
    var rejected: Int64
    var violations: UInt64
    /// What failed: `invariants (3)`, `latency.x.p95 = 80.1 h > 72h`.
    var failures: [String]
    /// Every expectation as judged at this capacity (value, interval, verdict).
    var expectations: [ExpectationJudgement] = []
    /// `backend.load.requests.total`: the requests the fleet sent.
    var requests: Int64 = 0

    init(outcome: RunOutcome) {
        let r = outcome.report
        // Holds: every expectation passes, conclusively (an inconclusive one is not an answer).
        held = outcome.passed(strict: true)
        utilisation = r.lookup("backend.load.apiUtilisation")?.doubleValue
        queueingP99 = r.lookup("backend.queueing.p99")?.doubleValue
        rejected = r.lookup("backend.rejected")?.intValue ?? 0
        violations = outcome.violations
        expectations = outcome.expectations
        requests = r.lookup("backend.load.requests.total")?.intValue ?? 0
        failures = (outcome.violations > 0 ? ["invariants (\(outcome.violations))"] : [])
            + outcome.expectations.filter { !$0.passed }.map(Self.failure)
    }

    /// `latency.x.p95 = 80.1 h > 72h`, or the inconclusive verdict with its evidence.
    static func failure(_ e: ExpectationJudgement) -> String {
        let limit = e.maxShown.map { "> \($0)" } ?? e.minShown.map { "< \($0)" } ?? ""
        return e.verdict == .inconclusive ? "\(e.metric) = \(MetricText.format(e.value, path: e.metric)) \(e.verdictText)"
                                          : "\(e.metric) = \(MetricText.format(e.value, path: e.metric)) \(limit)"
    }

    /// A capacity probed at several seeds (`--replications`): it holds when no seed
    /// violates an invariant and every expectation passes across the seeds
    /// (``Replications/judge(expectations:)``); the backend's figures are the seeds' means
    /// (503s and requests rounded), the violations their sum.
    init(outcomes: [RunOutcome]) {
        let judged = Replications.judge(outcomes).map(\.judgement)
        let n = Double(outcomes.count)
        func mean(_ path: String) -> Double? {
            let values = outcomes.compactMap { $0.report.lookup(path)?.doubleValue }
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        violations = outcomes.reduce(0) { $0 + $1.violations }
        held = violations == 0 && judged.allSatisfy { $0.verdict == .pass }
        utilisation = mean("backend.load.apiUtilisation")
        queueingP99 = mean("backend.queueing.p99")
        rejected = Int64((Double(outcomes.reduce(Int64(0)) { $0 + ($1.report.lookup("backend.rejected")?.intValue ?? 0) }) / n).rounded())
        requests = Int64((Double(outcomes.reduce(Int64(0)) { $0 + ($1.report.lookup("backend.load.requests.total")?.intValue ?? 0) }) / n).rounded())
        expectations = judged
        failures = (violations > 0 ? ["invariants (\(violations))"] : []) + judged.filter { !$0.passed }.map(Self.failure)
    }

    init(error: String) {
        held = false
        rejected = 0
        violations = 0
        failures = [error]
    }

    static let header = "  capacity  utilisation  queueing p99       503s  verdict"

    /// One line of the printed table.
    var row: String {
        func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        let u = utilisation.map { HumanUnits.percent(fraction: $0) } ?? "-"
        let q = queueingP99.map { HumanUnits.duration(seconds: $0) } ?? "-"
        let verdict = held ? "holds" + (evidence.isEmpty ? "" : ": " + evidence.joined(separator: "; ")) : "fails: " + failures.joined(separator: "; ")
        return "  " + pad(HumanUnits.count(capacity), 8) + "  " + pad(u, 11) + "  " + pad(q, 12) + "  " + pad(HumanUnits.count(rejected), 9) + "  " + verdict
    }

    /// Each expectation with an interval that passed: `backend.queueing.p95 = 912 ms (95 % CI
    /// 870-950 ms, batch means: 32 batches of 4.0 min)`, what a holding probe shows.
    var evidence: [String] {
        expectations.filter { $0.passed && $0.interval != nil }.map { e in
            "\(e.metric) = \(MetricText.format(e.value, path: e.metric)) (95 % CI \(ExpectationJudgement.rangeText(e.interval!))"
                + (e.methodText.map { ", \($0)" } ?? "") + ")"
        }
    }

    /// The probe in plan.json.
    var value: ReportValue {
        [
            "capacity": .count(capacity),
            "held": .bool(held),
            "utilisation": utilisation.map { ReportValue.number($0, digits: 4) } ?? .null,
            "queueingP99": queueingP99.map { ReportValue.number($0, digits: 6) } ?? .null,
            "rejected": .count(rejected),
            "violations": .count(violations),
            "failures": .array(failures.map { .string($0) }),
            "requests": .count(requests),
            "expect": .array(expectations.map(\.reportValue)),
        ]
    }

    /// Runs `scenarios` (one world each, at most `jobs` at once on their own threads),
    /// answering in the same order; with `replications` R, each at its seed and the R − 1
    /// after it, one probe across them.
    static func run(_ scenarios: [Scenario], jobs: Int, replications: Int = 1, engine: Engine = .reference) -> [PlanProbe] {
        let runs = scenarios.flatMap { s in (0..<UInt64(replications)).map { var r = s; r.seed = s.seed &+ $0; return r } }
        let outcomes = Slots<Result<RunOutcome, ProbeError>>(count: runs.count)
        runEach(runs, jobs: jobs, engine: engine, into: outcomes)
        let all = outcomes.all
        return scenarios.indices.map { i in
            var seeds: [RunOutcome] = []
            for result in all[i * replications..<(i + 1) * replications] {
                switch result {
                case .success(let outcome): seeds.append(outcome)
                case .failure(let error): return PlanProbe(error: error.text)
                }
            }
            return replications == 1 ? PlanProbe(outcome: seeds[0]) : PlanProbe(outcomes: seeds)
        }
    }

    struct ProbeError: Error { var text: String }

    /// Each scenario's world run to its end and reported, at most `jobs` at once.
    static func runEach(_ scenarios: [Scenario], jobs: Int, engine: Engine, into results: Slots<Result<RunOutcome, ProbeError>>) {
        let done = DispatchGroup()
        for _ in 0..<min(jobs, scenarios.count) {
            done.enter()
            Thread {
                while let i = results.take() {
                    let world = engine.world(scenarios[i])
                    world.runToEnd()
                    do { results.store(.success(try world.report()), at: i) } catch { results.store(.failure(ProbeError(text: "\(error)")), at: i) }
                }
                done.leave()
            }.start()
        }
        done.wait()
    }

    /// Results by index, filled by the worker threads.
    final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var slots: [T?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func take() -> Int? { lock.withLock { defer { next += 1 }; return next < slots.count ? next : nil } }
        func store(_ p: T, at i: Int) { lock.withLock { slots[i] = p } }
        var all: [T] { lock.withLock { slots.map { $0! } } }
    }
}
