import Foundation
import Testing
@testable import FleetSimCLI

/// `run --replications R`: seeds S..S+R−1, each seed's report set, and each expectation
/// judged by its Student's t interval across the seeds (docs/report.md, "Intervals").
@Suite struct ReplicationsTests {
    static let scenario = """
    {"name": "reps", "seed": 11, "start": "2026-03-02T00:00:00Z", "duration": "2h",
     "fleet": [{"cohort": "phones", "count": 30, "platform": "ios", "usage": {"appOpensPerDay": 24}, "signedIn": 1}],
     "expect": [{"metric": "users.appOpens", "min": 1}, {"metric": "users.appOpens", "max": 1}]}
    """

    /// With `--shard`, each seed's shard report merges with the seed's other shards into
    /// that seed's run; one shard's seeds are not judged across each other (a part of
    /// the fleet), so no replications.json and no failed expectation decides the exit.
    /// `merge` of the shards' directories merges each seed's shards and judges across the
    /// merged seeds: on a count, which merges exactly, its replications.json is the
    /// unsharded `run --replications`' byte for byte.
    @Test func shardedReplicationsMergePerSeedAndAreJudgedAcrossTheMergedSeeds() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.scenario, to: "reps.json", in: dir)
        let shards = (0..<2).map { dir.appendingPathComponent("shard-\($0)").path }
        for (k, out) in shards.enumerated() {
            let result = try CLI.run(["run", file, "--replications", "3", "--shard", "\(k)/2", "--quiet", "--out", out])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("reps (shard \(k)/2): 3 replications (seeds 11-13); 0 invariant violation(s); no judgement across the seeds of one shard"), "\(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: "\(out)/replications.json"))
        }
        let whole = dir.appendingPathComponent("whole").path, merged = dir.appendingPathComponent("merged").path
        #expect(try CLI.run(["run", file, "--replications", "3", "--quiet", "--out", whole]).status == 1)
        let m = try CLI.run(["merge"] + shards + ["--out", merged])
        // The second expectation (at most one app open) fails across the seeds: exit 1.
        #expect(m.status == 1, "\(m.stdout)\(m.stderr)")
        #expect(m.stdout.contains("reps: 3 replications (seeds 11-13), each merged from 2 shards; 0 invariant violation(s); across the seeds: 1 failed expectation(s)."), "\(m.stdout)")
        #expect(m.stdout.contains("FAIL expectation users.appOpens = ") && m.stdout.contains("; replications\n"), "\(m.stdout)")
        func opens(_ path: String) throws -> Int? {
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(path)/report.json"))) as? [String: Any]
            return (report?["users"] as? [String: Any])?["appOpens"] as? Int
        }
        for seed in 11...13 {
            let plain = try opens("\(whole)/seed-\(seed)"), combined = try opens("\(merged)/seed-\(seed)")
            #expect(plain != nil && combined == plain, "seed \(seed)")
        }
        let across = try Data(contentsOf: URL(fileURLWithPath: "\(merged)/replications.json"))
        #expect(across == (try Data(contentsOf: URL(fileURLWithPath: "\(whole)/replications.json"))), "\(String(decoding: across, as: UTF8.self))")
        #expect(try String(contentsOfFile: "\(merged)/replications.md", encoding: .utf8).contains("Each seed's report is in `seed-<seed>/`, merged from its 2 shards."))

        // Refused, nothing written (exit 2): a shard of another R, which lacks seed 13;
        // a directory beside a report; a seed whose shards are not one run's (shard 0
        // twice in seed 12), after seed 11 merged: that seed's set is removed again.
        let fewer = dir.appendingPathComponent("fewer").path
        #expect(try CLI.run(["run", file, "--replications", "2", "--shard", "1/2", "--quiet", "--out", fewer]).status == 0)
        let refused = dir.appendingPathComponent("refused").path
        let r = try CLI.run(["merge", shards[0], fewer, "--out", refused])
        #expect(r.status == 2 && r.stderr.contains("\(fewer): expected seed-11, seed-12, seed-13 (3 seeds) as in \(shards[0]), found seed-11, seed-12 (2 seeds)"), "\(r.stderr)")
        let mixed = try CLI.run(["merge", shards[0], "\(shards[1])/seed-11/report.json", "--out", refused])
        #expect(mixed.status == 2 && mixed.stderr.contains("found 1 directories and 1 other file(s)"), "\(mixed.stderr)")
        let twice = dir.appendingPathComponent("twice").path
        try FileManager.default.copyItem(atPath: shards[1], toPath: twice)
        try FileManager.default.removeItem(atPath: "\(twice)/seed-12")
        try FileManager.default.copyItem(atPath: "\(shards[0])/seed-12", toPath: "\(twice)/seed-12")
        let t = try CLI.run(["merge", shards[0], twice, "--out", refused])
        #expect(t.status == 2 && t.stderr.contains("both shard 0/2"), "\(t.stdout)\(t.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(refused)/seed-11/report.json") && !FileManager.default.fileExists(atPath: "\(refused)/replications.json"))
    }

    @Test func threeSeedsTheirReportsAndOneJudgementAcrossThem() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.scenario, to: "reps.json", in: dir)
        let out = dir.appendingPathComponent("reps").path
        let result = try CLI.run(["run", file, "--replications", "3", "--quiet", "--out", out])
        // The second expectation (at most one app open) fails across the seeds: exit 1.
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 replications (seeds 11-13)"), "\(result.stdout)")
        var totals: [Double] = []
        for seed in 11...13 {
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/seed-\(seed)/report.json"))) as? [String: Any]
            #expect(report?["seed"] as? Int == seed)
            totals.append(Double((report?["users"] as? [String: Any])?["appOpens"] as? Int ?? -1))
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/replications.json"))) as? [String: Any]
        let expect = try #require(json?["expect"] as? [[String: Any]])
        #expect(expect.count == 2)
        #expect(expect[0]["values"] as? [Double] == totals)
        #expect(expect[0]["ciMethod"] as? String == "replications")
        // The interval is the mean ± t(2) × s / √3.
        let mean = totals.reduce(0, +) / 3
        let sd = (totals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 2).squareRoot()
        #expect(abs((expect[0]["ciHigh"] as? Double ?? 0) - (mean + 4.303 * sd / 3.0.squareRoot())) < 1e-3)
        #expect(expect[0]["verdict"] as? String == "pass" && expect[1]["verdict"] as? String == "fail")
        #expect(FileManager.default.fileExists(atPath: "\(out)/replications.md"))
    }

    /// `explore --replications 3`: seeds 1-3 as `--seeds 3` runs them, and each
    /// expectation judged across them too: printed after the seeds, in summary.json's
    /// `replications` (the across-seed interval of the seeds' own values), a failure
    /// across the seeds exiting 1. `--seeds` and `--replications` that disagree are bad usage.
    @Test func exploreJudgesEachExpectationAcrossTheSeeds() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(Self.scenario, to: "reps.json", in: dir)
        let out = dir.appendingPathComponent("explore").path
        let result = try CLI.run(["explore", file, "--replications", "3", "--jobs", "2", "--out", out])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("explored 3 seed(s) from 1"), "\(result.stdout)")
        #expect(result.stdout.contains("across the 3 seeds (replications): 1 failed expectation(s)."), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL expectation users.appOpens = "), "\(result.stdout)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/summary.json"))) as? [String: Any])
        let across = try #require(summary["replications"] as? [[String: Any]])
        #expect(across.map { $0["verdict"] as? String } == ["pass", "fail"])
        #expect(across.allSatisfy { $0["ciMethod"] as? String == "replications" && $0["n"] as? Int == 3 })
        // The interval is the seeds' mean ± t(2) × s / √3 of their own appOpens.
        let values = try #require((((summary["metrics"] as? [String: Any])?["users.appOpens"]) as? [String: Any])?["values"] as? [Double])
        let mean = values.reduce(0, +) / 3
        let sd = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 2).squareRoot()
        #expect(abs((across[0]["ciLow"] as? Double ?? 0) - (mean - 4.303 * sd / 3.0.squareRoot())) < 1e-3)
        // Without --replications, summary.json has no such key.
        let plain = try CLI.run(["explore", file, "--seeds", "2", "--jobs", "2", "--out", dir.appendingPathComponent("plain").path])
        #expect(plain.status == 1)
        let plainSummary = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("plain/summary.json"))) as? [String: Any]
        #expect(plainSummary?["replications"] == nil && !plain.stdout.contains("across the"))
        let clash = try CLI.run(["explore", file, "--seeds", "2", "--replications", "3"])
        #expect(clash.status == 2 && clash.stderr.contains("--seeds 2 and --replications 3 disagree"), "\(clash.stderr)")
    }
}
