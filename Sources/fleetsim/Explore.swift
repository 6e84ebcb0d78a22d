import Foundation
import Reports
import Scenario
import Simulation

/// `fleetsim explore`: many seeds in parallel, each world single-threaded on its own
/// worker thread; results are printed in seed order, so the output is deterministic.
enum Explore {
    struct SeedResult: Sendable {
        var seed: UInt64
        var violations: UInt64
        var byKind: [(kind: String, count: Int64)]
        var failedExpectations: [String]
        var firstDevice: Int64?
        var firstTime: Double?
        var passed: Bool { violations == 0 && failedExpectations.isEmpty }
    }

    /// Results by seed index, filled by the workers.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private(set) var slots: [SeedResult?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func take() -> Int? { lock.withLock { defer { next += 1 }; return next < slots.count ? next : nil } }
        func store(_ r: SeedResult, at i: Int) { lock.withLock { slots[i] = r } }
    }

    static func run(_ args: ArraySlice<String>) throws(UsageError) -> Int32 {
        let parsed = try Arguments(args, valued: ["seeds", "first", "jobs", "scale", "variants"], flags: ["swarm"])
        let path = try parsed.positional(0, "SCENARIO file")
        try parsed.noExtraPositionals(after: 1)
        guard let count = try parsed.int("seeds"), count > 0 else { throw UsageError("explore needs --seeds N (N > 0)") }
        let first = try parsed.uint64("first") ?? 1
        let jobs = max(1, try parsed.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount)
        let swarm = parsed.flags.contains("swarm")
        guard let loaded = FleetSimCommand.load(path) else { return 2 }
        let scenario = try FleetSimCommand.adjust(loaded, parsed)

        let results = Results(count: count)
        let done = DispatchGroup()
        for _ in 0..<min(jobs, count) {
            done.enter()
            Thread {
                while let i = results.take() {
                    var s = scenario
                    s.seed = first &+ UInt64(i)
                    if swarm { s = Swarm.apply(to: s) }
                    results.store(evaluate(s), at: i)
                }
                done.leave()
            }.start()
        }
        done.wait()

        var failed = 0
        var totals: [String: Int64] = [:]
        for case let r? in results.slots {
            for k in r.byKind { totals[k.kind, default: 0] += k.count }
            guard !r.passed else { continue }
            failed += 1
            let kinds = r.byKind.filter { $0.count > 0 }.map { "\($0.kind) x\($0.count)" } + r.failedExpectations.map { "expect \($0)" }
            print("seed \(r.seed): FAIL  \(kinds.joined(separator: ", "))")
            if let device = r.firstDevice, let time = r.firstTime {
                let from = max(0, Int(time) - 300)
                let options = scenario.replayOptions.isEmpty ? "" : " \(scenario.replayOptions)"
                print("  fleetsim replay \(path) --seed \(r.seed) --device \(device) --from \(from)s --to \(Int(time) + 60)s\(options)")
            }
        }
        print("\nexplored \(count) seed(s) from \(first)\(swarm ? " with swarm parameters" : ""): \(count - failed) passed, \(failed) failed")
        let kinds = totals.keys.sorted()
        if !kinds.isEmpty {
            print("")
            print(MarkdownTable.render(header: ["invariant", "violations", "seeds failing"],
                                           rows: kinds.map { k in
                                               [k, String(totals[k] ?? 0), String(results.slots.compactMap { $0 }.filter { r in r.byKind.contains { $0.kind == k && $0.count > 0 } }.count)]
                                           }))
        }
        return failed == 0 ? 0 : 1
    }

    static func evaluate(_ scenario: Scenario) -> SeedResult {
        var world = World(scenario: scenario)
        world.runToEnd()
        guard let outcome = try? world.report() else {
            return SeedResult(seed: scenario.seed, violations: 0, byKind: [], failedExpectations: ["(report failed)"])
        }
        let byKind = (outcome.report.lookup("invariants.byKind")?.objectValue ?? [:]).keys.sorted().map {
            (kind: $0, count: outcome.report.lookup("invariants.byKind")?.objectValue?[$0]?.intValue ?? 0)
        }
        let sample = outcome.report.lookup("invariants.samples.0")
        return SeedResult(seed: scenario.seed, violations: outcome.violations, byKind: byKind,
                          failedExpectations: outcome.expectations.filter { !$0.passed }.map(\.metric),
                          firstDevice: sample?.lookup("device")?.intValue, firstTime: sample?.lookup("time")?.doubleValue)
    }
}
