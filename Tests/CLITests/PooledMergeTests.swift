import Foundation
import Testing
@testable import FleetSimCLI

/// The request log end to end (docs/scale.md, "One pooled backend"): shards write
/// requests.bin, merge replays their union through the whole capacity into
/// `backend.pooled` and writes the union, `whatif` replays it at other worker counts.
@Suite struct PooledMergeTests {
    /// The capacity scenario at 1,000 phones with 8 workers (2 a shard).
    static func scenario(in dir: URL) throws -> String {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("scenarios/capacity.json"))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var backend = json["backend"] as? [String: Any] ?? [:]
        backend["workers"] = 8
        json["backend"] = backend
        let path = dir.appendingPathComponent("capacity-8.json")
        try JSONSerialization.data(withJSONObject: json).write(to: path)
        return path.path
    }

    @Test func mergeReplaysTheShardsRequestsAndWhatifReplaysTheMerge() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = try Self.scenario(in: dir)
        var shards: [String] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("s\(k)").path
            let r = try CLI.run(["run", scenario, "--scale", "0.005", "--shard", "\(k)/2", "--out", out, "--quiet"])
            #expect(r.status == 0 && r.stdout.contains("requests.bin"), "\(r.stdout)\(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: out + "/requests.bin"))
            shards.append(out + "/report.json")
        }
        // A part carries the union of its shards' logs, but no pooled figures.
        let part = dir.appendingPathComponent("part").path
        #expect(try CLI.run(["merge", shards[0], "--partial", "--out", part]).status == 0)
        #expect(FileManager.default.fileExists(atPath: part + "/requests.bin"))
        #expect(!(try String(contentsOfFile: part + "/report.json", encoding: .utf8)).contains("\"pooled\""))

        let merged = dir.appendingPathComponent("merged").path
        let m = try CLI.run(["merge", part + "/report.json", shards[1], "--out", merged])
        #expect(m.status == 0, "\(m.stdout)\(m.stderr)")
        #expect(m.stdout.contains("Pooled backend (8 workers, the shards' requests replayed)"), "\(m.stdout)")
        let report = try Merge.readReport(merged + "/report.json")
        #expect(report.lookup("backend.pooled.capacity.workers")?.intValue == 8)
        #expect(report.lookup("backend.pooled.requests") == report.lookup("backend.requests.total"))
        let md = try String(contentsOfFile: merged + "/report.md", encoding: .utf8)
        #expect(md.contains("**One pooled backend:**"))
        // The backend expectations are judged on the pooled figures (the shards each had 4
        // of the 8 workers), by batch means over the pooled waits; the others as merged.
        let expect = report.lookup("expect")?.arrayValue ?? []
        let p99 = try #require(expect.first { $0.lookup("metric")?.stringValue == "backend.queueing.p99" })
        #expect(p99.lookup("judgedOn")?.stringValue == "backend.pooled.queueing.p99")
        #expect(p99.lookup("value")?.doubleValue == report.lookup("backend.pooled.queueing.p99")?.doubleValue)
        #expect(p99.lookup("ciMethod")?.stringValue == "batch means")
        let rejected = try #require(expect.first { $0.lookup("metric")?.stringValue == "backend.rejected" })
        #expect(rejected.lookup("judgedOn")?.stringValue == "backend.pooled.rejected")
        #expect(expect.filter { $0.lookup("metric")?.stringValue?.hasPrefix("latency.") == true }.allSatisfy { $0.lookup("judgedOn") == nil })
        #expect(md.contains("backend.queueing.p99 (judged on backend.pooled.queueing.p99: one backend of the whole capacity, exact)"), "\(md)")
        #expect(md.contains("The backend expectations are judged on these pooled figures"))
        // Every push figure reads as what it is, on the table and the console: the pool's
        // size exact, the replay's figures exact here (nothing shaped the arrivals), the
        // shards' own instant peak a bound.
        let push = md.split(separator: "\n").filter { $0.hasPrefix("| APNs push service: ") }
        func reads(_ row: String) -> String? {
            push.first { $0.hasPrefix("| APNs push service: \(row)") }?.split(separator: "|").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(push.count == 5 && reads("streams / queue places") == "exact" && reads("most streams open at once (instant)") == "exact"
                && reads("most streams open at once, the shards' own") == "bound (sharded)" && reads("utilisation / headroom") == "exact", "\(push)")
        #expect(m.stdout.contains("; APNs push: most streams open at once ") && m.stdout.contains(", sharded: bound), ")
                && m.stdout.contains("; the pooled figures are exact (no answer of the shards' part capacity"), "\(m.stdout)")
        // The part's union and the other shard's log make the whole run's.
        let direct = dir.appendingPathComponent("direct").path
        #expect(try CLI.run(["merge"] + shards + ["--out", direct]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: merged + "/requests.bin")) == Data(contentsOf: URL(fileURLWithPath: direct + "/requests.bin")))
        // A merged report is read again as any report is: the regression gate compares two
        // of them (its pooled figures are merge's own, never summed as a shard's count).
        let c = try CLI.run(["compare", direct + "/report.json", merged + "/report.json"])
        #expect(c.status == 0 && !c.stderr.contains("backend.pooled"), "\(c.stdout)\(c.stderr)")

        let w = try CLI.run(["whatif", merged, "--workers", "1,8"])
        #expect(w.status == 0, "\(w.stdout)\(w.stderr)")
        #expect(w.stdout.contains("| workers |") && w.stdout.contains("Valid while the arrivals do not depend on the answers"), "\(w.stdout)")
        #expect(w.stdout.split(separator: "\n").filter { $0.hasPrefix("|       1 |") || $0.hasPrefix("|       8 |") }.count == 2, "\(w.stdout)")
    }

    @Test func whatifWithoutARequestLogSaysHowToRecordOne() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["whatif", dir.path, "--workers", "4"])
        #expect(r.status == 2 && r.stderr.contains("run --record-requests"), "\(r.stderr)")
        let bad = try CLI.run(["whatif", dir.path, "--workers", "4,zero"])
        #expect(bad.status == 2 && bad.stderr.contains("--workers expects comma-separated counts"), "\(bad.stderr)")
    }

    /// Recording never changes the run (report.json the same bytes with and without it),
    /// its log is the same bytes run to run, and a run without --record-requests into a
    /// directory that holds an earlier run's log removes it: whatif never replays another
    /// run's requests.
    @Test func theLogIsDeterministicChangesNothingAndNeverOutlivesItsRun() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = try Self.scenario(in: dir)
        func out(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        for (name, record) in [("a", true), ("b", true), ("plain", false)] {
            let r = try CLI.run(["run", scenario, "--scale", "0.0025", "--out", out(name), "--quiet"] + (record ? ["--record-requests"] : []))
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try bytes(out("a") + "/requests.bin") == bytes(out("b") + "/requests.bin"))
        #expect(try bytes(out("a") + "/report.json") == bytes(out("plain") + "/report.json"))
        #expect(!FileManager.default.fileExists(atPath: out("plain") + "/requests.bin"))
        #expect(try CLI.run(["run", scenario, "--scale", "0.0025", "--out", out("a"), "--quiet"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: out("a") + "/requests.bin"))
        #expect(FileManager.default.fileExists(atPath: out("a") + "/report.json"))
    }
}
