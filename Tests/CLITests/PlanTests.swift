import Foundation
import Testing
import Reports
@testable import FleetSimCLI

/// `fleetsim plan`: the search finds the smallest capacity that holds with one less
/// failing, and the command's answer holds in a plain `run` while one worker fewer fails.
@Suite struct PlanTests {
    /// A monotone world: capacity `c` holds from `threshold` on.
    static func search(threshold: Int, start: Int, parallel: Int, highest: Int = 4_096) -> PlanSearch.Outcome {
        PlanSearch(lowest: 1, highest: highest, start: start, parallel: parallel).run { round in
            #expect(round == round.sorted())
            return round.map { $0 >= threshold }
        }
    }

    @Test(arguments: [1, 2, 3, 4]) func findsTheThresholdWithBothNeighboursProbed(parallel: Int) {
        for threshold in [1, 2, 3, 7, 8, 9, 31, 64, 65, 1_000] {
            for start in [1, 8, 64, 100] {
                let o = Self.search(threshold: threshold, start: start, parallel: parallel)
                #expect(o.answer == threshold, "threshold \(threshold) start \(start)")
                #expect(o.probes.contains { $0.capacity == threshold && $0.held })
                if threshold > 1 { #expect(o.probes.contains { $0.capacity == threshold - 1 && !$0.held }) }
                #expect(Set(o.probes.map(\.capacity)).count == o.probes.count, "no capacity probed twice")
                #expect(!o.nonMonotone)
            }
        }
    }

    /// k probes a round narrow a gap of g in about log_(k+1) g rounds: more jobs, fewer rounds.
    @Test func moreProbesARoundTakeFewerRounds() {
        func rounds(_ parallel: Int) -> Int {
            var n = 0
            _ = PlanSearch(lowest: 1, highest: 4_096, start: 1_024, parallel: parallel).run { round in n += 1; return round.map { $0 >= 397 } }
            return n
        }
        #expect(rounds(1) == 11)
        #expect(rounds(3) < rounds(1))
    }

    @Test func nothingHoldsUpToTheMaximum() {
        let o = Self.search(threshold: 5_000, start: 64, parallel: 2, highest: 300)
        #expect(o.answer == nil)
        #expect(o.probes.map(\.capacity).max() == 300)
    }

    @Test func aProbeThatContradictsMoreIsBetterIsReported() {
        // Holds at 3 and from 10 on, fails at 4-9: the answer is 10 (9 failed), flagged.
        let o = PlanSearch(lowest: 1, highest: 64, start: 16, parallel: 1).run { $0.map { $0 == 3 || $0 >= 10 } }
        #expect(o.nonMonotone || o.answer == 10)
        if let a = o.answer {
            #expect(o.probes.contains { $0.capacity == a && $0.held })
            if a > 1 { #expect(o.probes.contains { $0.capacity == a - 1 && !$0.held }) }
        }
    }

    /// A failing probe at `capacity` whose one expectation reads `value` (inconclusive).
    static func failing(_ capacity: Int, value: Double) -> PlanProbe {
        var p = PlanProbe(error: "x")
        p.capacity = capacity
        p.expectations = [ExpectationJudgement(metric: "latency.stepsRecordedToSynced.p90", min: nil, max: 3_600, value: value,
                                               samples: 80, interval: .init(low: value - 500, high: value + 500), verdict: .inconclusive)]
        return p
    }

    /// What fails no nearer its limit at twice a capacity does not move with the capacity:
    /// the search stops after that round, saying which expectation; what came nearer does not stop it.
    @Test func anExpectationThatDoesNotMoveStopsTheSearch() {
        #expect(Plan.unmoved([Self.failing(48, value: 3_500), Self.failing(96, value: 3_500)])?.contains("latency.stepsRecordedToSynced.p90") == true)
        #expect(Plan.unmoved([Self.failing(48, value: 3_500), Self.failing(96, value: 3_600)]) != nil, "worse at twice the capacity")
        #expect(Plan.unmoved([Self.failing(48, value: 3_500), Self.failing(96, value: 3_400)]) == nil, "nearer its limit")
        var open = Self.failing(96, value: 3_400)
        open.expectations[0].interval?.high = nil
        #expect(Plan.unmoved([Self.failing(48, value: 3_500), open]) != nil, "open above: no nearer")
        #expect(Plan.unmoved([Self.failing(48, value: 3_500), Self.failing(80, value: 3_500)]) == nil, "not yet twice the capacity")
        var rounds = 0
        let o = PlanSearch(lowest: 1, highest: 4_096, start: 96, parallel: 2).run(stop: { rounds >= 1 }) { round in
            rounds += 1
            return round.map { _ in false }
        }
        #expect(o.stopped && o.answer == nil && o.probes.map(\.capacity) == [48, 96])
    }

    /// A p95, not a p99: the API's waits get batch-means intervals, and 1,307 waits in
    /// 12 h give no 10 batches of the 200 waits a batch p99 needs (insufficient).
    static let scenario = """
    {"name": "capacity", "seed": 9, "start": "2026-03-02T00:00:00Z", "duration": "12h",
     "fleet": [{"cohort": "phones", "count": 400, "platform": "ios", "timeZones": {"America/New_York": 1},
                "usage": {"appOpensPerDay": 4}, "signedIn": 1}],
     "backend": {"workers": WORKERS, "serviceTime": {"lognormal": {"median": "300ms", "p99": "3s"}}},
     "expect": [{"metric": "invariants.violations", "max": 0},
                {"metric": "backend.queueing.p95", "max": "500ms"}]}
    """

    /// The command end to end, two probes a round: its answer holds in a plain run and one
    /// worker fewer fails, both checked with `fleetsim run --strict` (plan's "holds": every
    /// expectation passes conclusively) on a copy of the file.
    @Test func theAnswerHoldsAndOneWorkerFewerFails() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.scenario.replacingOccurrences(of: "WORKERS", with: "8"), to: "capacity.json", in: dir)
        let plan = try CLI.run(["plan", file, "--jobs", "2", "--out", dir.appendingPathComponent("plan").path])
        #expect(plan.status == 0, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("Answer: backend.workers = "))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("plan/plan.json"))) as? [String: Any]
        let answer = try #require((json?["answer"] as? [String: Any])?["backend.workers"] as? Int)
        #expect(answer > 1)
        for (workers, status) in [(answer, Int32(0)), (answer - 1, Int32(1))] {
            let f = try CLI.write(Self.scenario.replacingOccurrences(of: "WORKERS", with: "\(workers)"), to: "w\(workers).json", in: dir)
            let run = try CLI.run(["run", f, "--quiet", "--strict", "--out", dir.appendingPathComponent("run\(workers)").path])
            #expect(run.status == status, "\(workers) workers: \(run.stdout)")
        }
    }

    /// One worker gives a queueing p95 of about 1.4 s against the limit of 500 ms, so with
    /// `--max 1` nothing in range holds.
    @Test func nothingInRangeExitsOne() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.scenario.replacingOccurrences(of: "WORKERS", with: "1"), to: "capacity.json", in: dir)
        let plan = try CLI.run(["plan", file, "--jobs", "1", "--max", "1", "--out", dir.path])
        #expect(plan.status == 1)
        #expect(plan.stdout.contains("No answer: no backend.workers up to 1"))
    }

    /// `--replications 2`: every probe is two runs (seeds 9 and 10) judged across them, and
    /// it holds exactly when no seed violated an invariant and every expectation's
    /// interval across the seeds passes (`ciMethod` `replications`); the answer held,
    /// one worker fewer did not.
    @Test func replicationsJudgeEachProbeAcrossTheSeeds() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.scenario.replacingOccurrences(of: "WORKERS", with: "8"), to: "capacity.json", in: dir)
        let plan = try CLI.run(["plan", file, "--jobs", "2", "--replications", "2", "--out", dir.appendingPathComponent("plan").path])
        #expect(plan.status == 0, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("seeds 9-10 (replications)"), "\(plan.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("plan/plan.json"))) as? [String: Any])
        #expect(json["replications"] as? Int == 2)
        let answer = try #require((json["answer"] as? [String: Any])?["backend.workers"] as? Int)
        let probes = try #require(((json["searches"] as? [[String: Any]])?.first)?["probes"] as? [[String: Any]])
        for probe in probes {
            let expect = try #require(probe["expect"] as? [[String: Any]])
            #expect(expect.allSatisfy { $0["ciMethod"] as? String == "replications" && $0["n"] as? Int == 2 })
            let everyPass = expect.allSatisfy { $0["verdict"] as? String == "pass" } && probe["violations"] as? Int == 0
            #expect(probe["held"] as? Bool == everyPass, "\(probe)")
        }
        #expect(probes.contains { $0["capacity"] as? Int == answer && $0["held"] as? Bool == true })
        #expect(probes.contains { $0["capacity"] as? Int == answer - 1 && $0["held"] as? Bool == false })
        let bad = try CLI.run(["plan", file, "--replications", "0"])
        #expect(bad.status == 2 && bad.stderr.contains("--replications must be at least 1"))
    }
}
