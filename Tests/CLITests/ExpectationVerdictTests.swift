import Foundation
import Reports
import Testing

/// An expectation on a percentile from few samples, end to end: run, merge and
/// --strict (docs/report.md, "Expectations").
@Suite struct ExpectationVerdictTests {
    /// 18 iPhones for two days: a refresh-duration p95 from about 80 samples.
    static func scenario(max: String) -> String {
        """
        {"name": "few", "duration": "2d", "fleet": [{"cohort": "a", "count": 18, "platform": "ios"}],
         "expect": [{"metric": "invariants.violations", "max": 0}, {"metric": "latency.refreshTaskDuration.p95", "max": \(max)}]}
        """
    }

    static func entry(_ dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let expect = try #require(report["expect"] as? [[String: Any]])
        return try #require(expect.first { $0["metric"] as? String == "latency.refreshTaskDuration.p95" })
    }

    /// Limit at the p95's own value: its interval straddles it. Without --strict that is
    /// printed (value, limit, n, interval) and exits 0; with --strict it exits 1; a
    /// limit below the whole interval fails either way, one above it passes.
    @Test func aP95FromAbout80SamplesIsInconclusiveAndOnlyStrictFailsIt() throws {
        let dir = try CLI.temporaryDirectory()
        let wide = try CLI.write(Self.scenario(max: "\"1h\""), to: "wide.json", in: dir)
        let passing = try CLI.run(["run", wide, "--out", dir.appendingPathComponent("wide").path, "--strict"])
        #expect(passing.status == 0, "\(passing.stdout)")
        let first = try Self.entry(dir.appendingPathComponent("wide"))
        let n = try #require(first["n"] as? Int), value = try #require(first["value"] as? Double)
        let low = try #require(first["ciLow"] as? Double), high = try #require(first["ciHigh"] as? Double)
        #expect((72...200).contains(n), "a p95 from about 80 samples with an upper bound (n ≥ 72), found \(n)")
        #expect(first["verdict"] as? String == "pass" && first["pass"] as? Bool == true)
        #expect(low < value && value < high)

        let limit = String(format: "%.6f", value)
        let atValue = "few.json"
        _ = try CLI.write(Self.scenario(max: limit), to: atValue, in: dir)
        let out = dir.appendingPathComponent("at-value")
        let lenient = try CLI.run(["run", atValue, "--out", out.path], in: dir)
        #expect(lenient.status == 0, "inconclusive alone is not a failure: \(lenient.stdout)")
        #expect(lenient.stdout.contains("0 failed expectation(s), 1 inconclusive (not a failure without --strict)."))
        let line = try #require(lenient.stdout.split(separator: "\n").first { $0.hasPrefix("INCONCLUSIVE expectation") })
        #expect(line.hasPrefix("INCONCLUSIVE expectation latency.refreshTaskDuration.p95 = "))
        // The limit in the value's unit, whatever the file wrote (a bare number of seconds).
        let shown = MetricText.format(Double(limit), path: "latency.refreshTaskDuration.p95")
        #expect(line.contains(", limit max \(shown); n = \(n); 95 % CI "), "\(line)")
        #expect(line.hasSuffix(" straddles \(shown) (\(atValue))"), "\(line)")
        for name in ["docs/cli.md", "docs/report.md"] {
            let docs = try String(contentsOf: CLI.packageRoot.appendingPathComponent(name), encoding: .utf8)
            #expect(docs.contains("$ fleetsim run few.json\n...\n\(line)\n"), "\(name) shows this line: \(line)")
        }
        let entry = try Self.entry(out)
        #expect(entry["verdict"] as? String == "inconclusive" && entry["pass"] as? Bool == false)
        #expect(entry["n"] as? Int == n && entry["ciLow"] as? Double == low && entry["ciHigh"] as? Double == high)
        let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("skipped=\"1\"") && junit.contains("<skipped message=\"latency.refreshTaskDuration.p95 = "))
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("**INCONCLUSIVE**: 0 invariant violation(s), 0 of 2 expectation(s) failed, 1 inconclusive"))
        // The Expectations table right under the verdict: n and the interval in their columns, then the result.
        let row = #"\| +"# + String(n) + #" \| [0-9.]+(-[0-9.]+)? (ms|s)(-[0-9.]+ (ms|s))? \(order statistics\) \| \? inconclusive \(straddles "# + NSRegularExpression.escapedPattern(for: shown) + #"\) \|"#
        #expect(markdown.range(of: row, options: .regularExpression) != nil, "\(markdown.prefix(1_200))")

        let strict = try CLI.run(["run", atValue, "--out", out.path, "--strict"], in: dir)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("1 failed expectation(s), 1 inconclusive (counted as failed: --strict)."))
        let strictJUnit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(strictJUnit.contains("type=\"inconclusive\"") && strictJUnit.contains("failures=\"1\""))

        let below = try CLI.write(Self.scenario(max: String(format: "%.6f", low / 2)), to: "below.json", in: dir)
        let failing = try CLI.run(["run", below, "--out", dir.appendingPathComponent("below").path])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("1 failed expectation(s)."))
        #expect(failing.stdout.contains("FAIL expectation latency.refreshTaskDuration.p95 = "))
    }

    /// Merged shards judge the expectation from the merged histogram and print it as
    /// run does: human units, the limit, n and the interval; --strict sets exit 1.
    @Test func mergePrintsVerdictsLikeRun() throws {
        let dir = try CLI.temporaryDirectory()
        let wide = try CLI.write(Self.scenario(max: "\"1h\""), to: "wide.json", in: dir)
        _ = try CLI.run(["run", wide, "--out", dir.appendingPathComponent("wide").path])
        let value = try #require(try Self.entry(dir.appendingPathComponent("wide"))["value"] as? Double)
        let limit = String(format: "%.6f", value)
        let file = try CLI.write(Self.scenario(max: limit), to: "few.json", in: dir)
        var shards: [String] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("shard\(k)").path
            _ = try CLI.run(["run", file, "--shard", "\(k)/2", "--out", out])
            shards.append(out + "/report.json")
        }
        let merged = dir.appendingPathComponent("merged")
        let r = try CLI.run(["merge"] + shards + ["--out", merged.path])
        let entry = try Self.entry(merged)
        let n = try #require(entry["n"] as? Int)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("expectation latency.refreshTaskDuration.p95") })
        #expect(line.hasPrefix("\((entry["verdict"] as? String) == "inconclusive" ? "INCONCLUSIVE" : "FAIL") expectation latency.refreshTaskDuration.p95 = "))
        #expect(line.contains(", limit max \(MetricText.format(Double(limit), path: "latency.refreshTaskDuration.p95")); n = \(n); 95 % CI "), "\(line)")
        #expect(r.stdout.range(of: #"= \d+\.\d{6}"#, options: .regularExpression) == nil, "no raw seconds: \(r.stdout)")
        let strict = try CLI.run(["merge"] + shards + ["--out", merged.path, "--strict"])
        #expect(strict.status == 1)
    }

    /// A p99 from fewer than 368 samples has no upper bound: inconclusive on every seed.
    /// explore passes such seeds (listed as INCONCLUSIVE) and fails them with --strict.
    @Test func exploreFailsInconclusiveSeedsOnlyWithStrict() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("""
        {"name": "few", "duration": "1d", "fleet": [{"cohort": "a", "count": 5, "platform": "ios"}],
         "expect": [{"metric": "latency.refreshTaskDuration.p99", "max": "1h"}]}
        """, to: "few.json", in: dir)
        let out = dir.appendingPathComponent("explore").path
        let lenient = try CLI.run(["explore", file, "--seeds", "2", "--jobs", "1", "--out", out])
        #expect(lenient.status == 0, "\(lenient.stdout)")
        #expect(lenient.stdout.contains("seed 1: INCONCLUSIVE  expect latency.refreshTaskDuration.p99"))
        #expect(lenient.stdout.contains("2 passed, 0 failed (2 passed with an inconclusive expectation: not a failure without --strict)"))
        let summary = try String(contentsOf: URL(fileURLWithPath: out + "/summary.json"), encoding: .utf8)
        #expect(summary.contains("\"inconclusiveExpectations\": [") && summary.contains("\"verdict\": \"inconclusive\""))
        let junit = try String(contentsOf: URL(fileURLWithPath: out + "/junit.xml"), encoding: .utf8)
        #expect(junit.contains("failures=\"0\"") && junit.contains("<system-out>INCONCLUSIVE expectation latency.refreshTaskDuration.p99 = "))
        let strict = try CLI.run(["explore", file, "--seeds", "2", "--jobs", "1", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("0 passed, 2 failed"))
        #expect(strict.stdout.contains("  INCONCLUSIVE expectation latency.refreshTaskDuration.p99 = "))
    }
}
