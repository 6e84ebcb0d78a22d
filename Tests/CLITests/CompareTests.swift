import Foundation
import Testing

@Suite struct CompareTests {
    @Test func sameReportPassesAWorseOneFails() throws {
        let dir = try CLI.temporaryDirectory()
        let clean = dir.appendingPathComponent("clean").path, racy = dir.appendingPathComponent("racy").path
        _ = try CLI.run(["run", "scenarios/races/unguarded-completion.json", "--variants", "none", "--out", clean, "--quiet"])
        _ = try CLI.run(["run", "scenarios/races/unguarded-completion.json", "--out", racy, "--quiet"])

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
