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
            + outcome.expectations.filter { !$0.passed }.map { e in
                let limit = e.maxShown.map { "> \($0)" } ?? e.minShown.map { "< \($0)" } ?? ""
                return e.verdict == .inconclusive ? "\(e.metric) = \(MetricText.format(e.value, path: e.metric)) \(e.verdictText)"
                                                  : "\(e.metric) = \(MetricText.format(e.value, path: e.metric)) \(limit)"
            }
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
    /// 870-950 ms, batch means: 20 batches of 6 min)`, what a holding probe shows.
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
    /// answering in the same order.
    static func run(_ scenarios: [Scenario], jobs: Int, engine: Engine = .reference) -> [PlanProbe] {
        let results = Slots(count: scenarios.count)
        let done = DispatchGroup()
        for _ in 0..<min(jobs, scenarios.count) {
            done.enter()
            Thread {
                while let i = results.take() {
                    var world = engine.world(scenarios[i])
                    world.runToEnd()
                    let probe: PlanProbe
                    do { probe = PlanProbe(outcome: try world.report()) } catch { probe = PlanProbe(error: "\(error)") }
                    results.store(probe, at: i)
                }
                done.leave()
            }.start()
        }
        done.wait()
        return results.all
    }

    /// Results by index, filled by the worker threads.
    final class Slots: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var slots: [PlanProbe?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func take() -> Int? { lock.withLock { defer { next += 1 }; return next < slots.count ? next : nil } }
        func store(_ p: PlanProbe, at i: Int) { lock.withLock { slots[i] = p } }
        var all: [PlanProbe] { lock.withLock { slots.map { $0! } } }
    }
}
