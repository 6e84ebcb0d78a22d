import Foundation
import Testing
import Simulation

@Suite struct CompareTests {
    /// The race scenario's shared runs (``SharedRuns``), with and without its variant.
    @Test func sameReportPassesAWorseOneFails() throws {
        let clean = try SharedRuns.clean.get().out.path, racy = try SharedRuns.caught.get().out.path

        let same = try CLI.run(["compare", "\(clean)/report.json", "\(clean)/report.json"])
        #expect(same.status == 0)
        #expect(same.stdout.contains("0 regression(s)"))

        let worse = try CLI.run(["compare", "\(clean)/report.json", "\(racy)/report.json", "--tolerance", "1"])
        #expect(worse.status == 1)
        #expect(worse.stdout.contains("| invariants.byKind.taskCompletedTwice"))
        #expect(worse.stdout.contains("| invariants.violations"))

        // The other way round, the violations are listed as improvements, not regressions.
        let better = try CLI.run(["compare", "\(racy)/report.json", "\(clean)/report.json", "--tolerance", "1"])
        let improvements = try #require(better.stdout.components(separatedBy: "Improvements:").last)
        #expect(better.stdout.contains("Improvements:"))
        #expect(improvements.contains("| invariants.violations"))
    }

    @Test func unreadableReportsExitTwo() throws {
        let dir = try CLI.temporaryDirectory()
        let garbage = try CLI.write("{not json", to: "g.json", in: dir)
        #expect(try CLI.run(["compare", garbage, garbage]).status == 2)
        #expect(try CLI.run(["compare", dir.appendingPathComponent("absent.json").path, garbage]).status == 2)
        #expect(try CLI.run(["compare", garbage]).status == 2)
    }
}

/// `compare` refuses reports of different runs and never compares identity fields.
@Suite struct HonestCompareTests {
    @Test func differentRunsAreRefusedUnlessAllowed() throws {
        let dir = try CLI.temporaryDirectory()
        let race = try SharedRuns.caught.get().out.path, half = try SharedRuns.half.get().out.path
        let other = dir.appendingPathComponent("other").path, seed2 = dir.appendingPathComponent("seed2").path
        _ = try CLI.run(["run", "scenarios/races/no-synchronize.json", "--scale", "0.2", "--out", other, "--quiet"])
        _ = try CLI.run(["run", "scenarios/races/unguarded-completion.json", "--seed", "2", "--out", seed2, "--quiet"])

        let scenarios = try CLI.run(["compare", "\(race)/report.json", "\(other)/report.json"])
        #expect(scenarios.status == 2)
        #expect(scenarios.stderr.contains("\(race)/report.json and \(other)/report.json are reports of different runs: scenario 'race-unguarded-completion' vs 'race-no-synchronize'"), "\(scenarios.stderr)")
        #expect(scenarios.stdout.isEmpty)

        let scales = try CLI.run(["compare", "\(race)/report.json", "\(half)/report.json"])
        #expect(scales.status == 2)
        #expect(scales.stderr.contains("simulated.devices 300 vs 150"), "\(scales.stderr)")
        #expect(scales.stderr.contains("--allow-different"))

        let allowed = try CLI.run(["compare", "\(race)/report.json", "\(half)/report.json", "--allow-different", "--tolerance", "1000000"])
        #expect(allowed.status == 0, "\(allowed.stdout)")
        #expect(allowed.stdout.contains("warning: "))

        // Another seed of the same run is comparable; the seed itself is not a metric.
        let seeds = try CLI.run(["compare", "\(race)/report.json", "\(seed2)/report.json", "--tolerance", "0"])
        #expect(seeds.status == 0 || seeds.status == 1)
        #expect(seeds.stdout.contains("note: seeds differ (1 vs 2)"))
        for identity in ["| seed ", "| simulated.", "| fleetsimVersion", "| backend.capacity."] { #expect(!seeds.stdout.contains(identity), "\(identity)") }
        // Values in units: durations never as raw seconds with six decimals.
        #expect(seeds.stdout.range(of: #"\d\.\d{6}"#, options: .regularExpression) == nil)
        #expect(seeds.stdout.contains(" ms ") || seeds.stdout.contains(" s ") || seeds.stdout.contains(" min "))
    }
}

/// A baseline of another model version is refused, naming both versions, unless
/// `--accept-model-version`: its numbers moved by design (docs/harness.md, "The model version").
@Suite struct ModelVersionCompareTests {
    @Test func aReportOfAnotherModelVersionIsRefusedUnlessAccepted() throws {
        let dir = try CLI.temporaryDirectory()
        let clean = try SharedRuns.clean.get().report.path
        let text = try String(contentsOfFile: clean, encoding: .utf8)
        #expect(text.contains("\"modelVersion\": \(modelVersion),"))
        let older = try CLI.write(text.replacingOccurrences(of: "\"modelVersion\": \(modelVersion),", with: "\"modelVersion\": \(modelVersion + 7),"),
                                  to: "older.json", in: dir)
        let refused = try CLI.run(["compare", older, clean])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(older) is of model version \(modelVersion + 7) and \(clean) of model version \(modelVersion)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--accept-model-version") && refused.stdout.isEmpty)
        // A report written before reports carried a model version.
        let unversioned = try CLI.write(text.replacingOccurrences(of: "\"modelVersion\": \(modelVersion),", with: ""), to: "unversioned.json", in: dir)
        let none = try CLI.run(["compare", unversioned, clean])
        #expect(none.status == 2 && none.stderr.contains("of model version none (made before reports carried one)"), "\(none.stderr)")

        let accepted = try CLI.run(["compare", older, clean, "--accept-model-version"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("warning: \(older) is of model version \(modelVersion + 7)") && accepted.stdout.contains("(compared anyway: --accept-model-version)"))
    }

    /// The same gate across seeds: summary.json carries the versions too.
    @Test func anExploreSummaryOfAnotherModelVersionIsRefusedUnlessAccepted() throws {
        let dir = try CLI.temporaryDirectory()
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        _ = try CLI.run(["explore", SharedRuns.race, "--seeds", "2", "--variants", "none", "--scale", "0.1", "--out", a.path])
        let summary = try String(contentsOf: a.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(summary.contains("\"fleetsimVersion\": \"\(fleetsimVersion)\","))
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        _ = try CLI.write(summary.replacingOccurrences(of: "\"modelVersion\": \(modelVersion),", with: "\"modelVersion\": \(modelVersion + 1),"),
                          to: "summary.json", in: b)
        let refused = try CLI.run(["compare", "--seeds", b.path, a.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(b.path) is of model version \(modelVersion + 1) and \(a.path) of model version \(modelVersion)"), "\(refused.stderr)")
        #expect(try CLI.run(["compare", "--seeds", b.path, a.path, "--accept-model-version"]).status == 0)
    }
}

/// `compare --seeds`: Welch's t-test per metric over two explore --out directories.
@Suite struct SeedCompareTests {
    static let small = """
    {"name": "small", "duration": "1d",
     "fleet": [{"cohort": "ios", "count": 6, "platform": "ios"}, {"cohort": "android", "count": 4, "platform": "android"}]
    """

    /// Same configuration, different seeds: no regression. The backend five times
    /// slower for the whole day: refresh task durations regress, significantly.
    @Test func findsASlowBackendAndNothingBetweenSeedSets() throws {
        let dir = try CLI.temporaryDirectory()
        let same = try CLI.write(Self.small + "}", to: "small.json", in: dir)
        let slow = try CLI.write(Self.small + #", "faults": [{"kind": "backendSlowdown", "at": "0s", "duration": "1d", "factor": 5}]}"#, to: "slow.json", in: dir)
        let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path, c = dir.appendingPathComponent("c").path
        #expect(try CLI.run(["explore", same, "--seeds", "20", "--out", a]).status == 0)
        #expect(try CLI.run(["explore", same, "--seeds", "20", "--first", "21", "--out", b]).status == 0)
        #expect(try CLI.run(["explore", slow, "--seeds", "20", "--first", "41", "--out", c]).status == 0)

        let quiet = try CLI.run(["compare", "--seeds", a, b])
        #expect(quiet.status == 0, "\(quiet.stdout)")
        #expect(quiet.stdout.contains("Welch's t-test"))
        #expect(quiet.stdout.contains("Bonferroni"))
        #expect(quiet.stdout.contains("0 regression(s)"))

        let slowed = try CLI.run(["compare", "--seeds", a, c])
        #expect(slowed.status == 1, "\(slowed.stdout)")
        #expect(slowed.stdout.contains("| latency.refreshTaskDuration.p95 "))
        // Sorted by effect (the d column never grows down the table), a legend, p in scientific notation.
        let table = slowed.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| metric") }
        let effects = table.compactMap { line in Double(line.split(separator: "|").last!.trimmingCharacters(in: .whitespaces)) }
        #expect(!effects.isEmpty && effects == effects.sorted(by: >), "\(effects)")
        #expect(slowed.stdout.contains("mean ± h: the mean over the seeds and h the half-width of its 95 % confidence interval"))
        #expect(table.allSatisfy { $0.range(of: #"\| \d\.\de-\d\d "#, options: .regularExpression) != nil }, "\(table)")
        #expect(!table.contains { $0.contains("percentOfCapacity") })

        // The other way round the slow backend's figures are improvements, not regressions.
        let back = try CLI.run(["compare", "--seeds", c, a])
        #expect(back.status == 0)
        #expect(back.stdout.contains("Improvements (statistically significant)"))
    }

    @Test func refusesDifferentScenariosAndNonSummaries() throws {
        let dir = try CLI.temporaryDirectory()
        let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path
        _ = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "2", "--scale", "0.1", "--out", a])
        _ = try CLI.run(["explore", "scenarios/races/no-synchronize.json", "--seeds", "2", "--scale", "0.1", "--out", b])
        let r = try CLI.run(["compare", "--seeds", a, b])
        #expect(r.status == 2)
        #expect(r.stderr.contains("explored different runs: scenario 'race-unguarded-completion' vs 'race-no-synchronize'"), "\(r.stderr)")
        let notADirectory = try CLI.run(["compare", "--seeds", a, dir.path])
        #expect(notADirectory.status == 2)
        #expect(notADirectory.stderr.contains("\(dir.path)/summary.json: expected the summary.json of explore --out"))
    }
}
