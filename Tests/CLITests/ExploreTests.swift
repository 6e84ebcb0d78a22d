import Foundation
import Testing
@testable import FleetSimCLI
import Reports
import Scenario
import Simulation

@Suite struct ExploreTests {
    /// Every failing seed is printed with its kinds and the exact replay command; exit 1.
    /// (The output of ``ExploreOutTests/seeds``' run with two jobs: `--out` only adds a line.)
    @Test func printsEachFailingSeedWithItsReplayCommand() throws {
        let r = try ExploreOutTests.seeds.get().two
        #expect(r.status == 1)
        for seed in 5...7 {
            #expect(r.stdout.contains("seed \(seed): FAIL  taskCompletedTwice x"))
            #expect(r.stdout.contains("fleetsim replay scenarios/races/unguarded-completion.json --seed \(seed) --device "))
        }
        #expect(r.stdout.contains("--scale 0.5"))
        #expect(r.stdout.contains("explored 3 seed(s) from 5: 0 passed, 3 failed"))
        #expect(r.stdout.contains("| taskCompletedTwice "))
        #expect(r.stdout.contains("| first seed | time to first (1 job) |"))
        #expect(r.stdout.range(of: #"\| taskCompletedTwice +\| \d+ +\| 3 +\| 5 +\| [0-9.]+ m?s +\|"#, options: .regularExpression) != nil, "\(r.stdout)")
        #expect(r.stdout.range(of: #"\| variant +\| caught as +\| seeds caught \| first seed \| time to first \(1 job\) \|"#, options: .regularExpression) != nil, "\(r.stdout)")
        #expect(r.stdout.range(of: #"\| refresh.unguardedCompletion +\| taskCompletedTwice +\| 3 of 3 +\| 5 +\| [0-9.]+ m?s +\|"#, options: .regularExpression) != nil, "\(r.stdout)")
    }

    /// A variant whose kind no seed hit is listed as not caught (a scenario that cannot
    /// catch it says so, rather than leaving the variant out).
    @Test func aVariantNoSeedCaughtIsListedAsNotCaught() throws {
        let r = try CLI.run(["explore", "scenarios/races/ignores-low-battery.json", "--seeds", "2", "--jobs", "1", "--variants", "push.ignoreQuietHours"])
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.range(of: #"\| push.ignoreQuietHours +\| pushDisplayedInQuietHours +\| 0 of 2 +\| not caught +\| - +\|"#, options: .regularExpression) != nil, "\(r.stdout)")
    }

    /// The correct logic on the same seeds: nothing fails, exit 0; the output does not
    /// depend on how many workers ran.
    @Test func correctLogicPassesAndOutputIsIndependentOfJobs() throws {
        let one = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "3", "--first", "5", "--jobs", "1", "--scale", "0.5", "--variants", "none"])
        let two = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "3", "--first", "5", "--jobs", "2", "--scale", "0.5", "--variants", "none"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("3 passed, 0 failed"))
        #expect(!one.stdout.contains("| variant "), "no variant runs, no variant table")
        #expect(one.stdout == two.stdout)
    }

    /// `--swarm` draws the environment from the seed; a failing swarm seed's replay
    /// command carries `--swarm` so it reproduces.
    @Test func swarmReplayCommandsCarryTheFlag() throws {
        let r = try CLI.run(["explore", "scenarios/races/no-synchronize.json", "--seeds", "2", "--swarm", "--scale", "0.5"])
        #expect(r.stdout.contains("with swarm parameters"))
        if r.status == 1 { #expect(r.stdout.contains(" --swarm")) }
        #expect(try CLI.run(["explore", "scenarios/default.json"]).status == 2)
    }
}

/// `explore --out`: summary.json (deterministic) and junit.xml.
@Suite struct ExploreOutTests {
    /// The race scenario's seeds 5 to 7 at half its fleet, explored with one job into
    /// `one/` and with two into `two/`, made once for ``ExploreTests`` too.
    static let seeds: Result<(dir: URL, one: CLI.Result, two: CLI.Result), Error> = Result {
        let dir = try CLI.temporaryDirectory()
        let args = ["explore", "scenarios/races/unguarded-completion.json", "--seeds", "3", "--first", "5", "--scale", "0.5"]
        return (dir, try CLI.run(args + ["--jobs", "1", "--out", dir.appendingPathComponent("one").path]),
                try CLI.run(args + ["--jobs", "2", "--out", dir.appendingPathComponent("two").path]))
    }

    @Test func writesADeterministicSummaryAndJUnit() throws {
        let (dir, first, r) = try Self.seeds.get()
        let one = dir.appendingPathComponent("one").path, two = dir.appendingPathComponent("two").path
        #expect(first.status == 1)
        #expect(r.stdout.contains("Summary: \(two)/summary.json (and junit.xml)"))
        let a = try Data(contentsOf: URL(fileURLWithPath: "\(one)/summary.json"))
        let b = try Data(contentsOf: URL(fileURLWithPath: "\(two)/summary.json"))
        #expect(a == b, "summary.json does not depend on --jobs")

        let summary = try #require(try JSONSerialization.jsonObject(with: a) as? [String: Any])
        #expect(summary["format"] as? String == "fleetsim-explore-summary/1")
        #expect((summary["method"] as? String)?.contains("Student t") == true)
        let seeds = try #require(summary["seeds"] as? [String: Any])
        #expect(seeds["failed"] as? Int == 3 && seeds["first"] as? Int == 5)
        let perSeed = try #require(summary["perSeed"] as? [[String: Any]])
        #expect(perSeed.map { $0["seed"] as? Int } == [5, 6, 7])
        #expect((perSeed[0]["replay"] as? String)?.hasPrefix("fleetsim replay scenarios/races/unguarded-completion.json --seed 5 --device ") == true)
        let kind = try #require((summary["violationKinds"] as? [String: Any])?["taskCompletedTwice"] as? [String: Any])
        #expect(kind["seedsCaught"] as? Int == 3 && kind["firstSeed"] as? Int == 5)
        let variant = try #require((summary["variants"] as? [String: Any])?["refresh.unguardedCompletion"] as? [String: Any])
        #expect(variant["kind"] as? String == "taskCompletedTwice" && variant["firstSeed"] as? Int == 5)

        // Every metric keeps its per-seed values; mean and interval agree with them.
        let metrics = try #require(summary["metrics"] as? [String: [String: Any]])
        #expect(metrics["seed"] == nil && metrics["simulated.devices"] == nil)
        let p95 = try #require(metrics["latency.refreshTaskDuration.p95"])
        let values = try #require(p95["values"] as? [Double])
        #expect(values.count == 3)
        let mean = values.reduce(0, +) / 3
        #expect(abs((p95["mean"] as? Double ?? 0) - mean) < 1e-6)
        let ci = try #require(p95["ci95"] as? [Double])
        #expect(ci[0] <= mean && mean <= ci[1])
        let violations = try #require(metrics["invariants.violations"]?["values"] as? [Int])
        #expect(violations.allSatisfy { $0 > 0 })

        let junit = try String(contentsOf: URL(fileURLWithPath: "\(two)/junit.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 3)
        #expect(junit.components(separatedBy: "<failure ").count - 1 == 3)
        #expect(junit.contains("name=\"seed 6\""))
        // Wall time: the suite's is the seeds' sum, from the explore's wall-clock start, as its property says.
        #expect(junit.contains("<property name=\"wallTime\" value=\"the sum of the wall times of the 3 seeds&apos; runs\"/>"))
        #expect(junit.contains("<property name=\"simulated.duration\" value=\"172800.000\"/>") && junit.contains(" timestamp=\"20"))
        #expect(junit.contains("replay: \(CLI.executable.path) replay scenarios/races/unguarded-completion.json --seed 6 --device "))
        #expect(junit.contains("FAIL expectation invariants.violations = "))
    }
}

/// The progress line: on a terminal only (seeds done/total, failing so far, ETA).
@Suite struct ExploreProgressTests {
    @Test func progressLineFormat() {
        #expect(Explore.progressLine((done: 0, failing: 0), total: 4, estimatedAt: 0, elapsed: 1) == "explore: 0/4 seeds, 0 failing, ETA unknown   ")
        #expect(Explore.progressLine((done: 1, failing: 1), total: 4, estimatedAt: 20, elapsed: 20) == "explore: 1/4 seeds, 1 failing, ETA 1.0 min   ")
        #expect(Explore.progressLine((done: 4, failing: 2), total: 4, estimatedAt: 20, elapsed: 20) == "explore: 4/4 seeds, 2 failing, ETA 0 s   ")
    }

    /// The estimate is steady while the next seed runs: it counts down with the clock,
    /// never up (it grew while it waited), and moves only when a seed is done.
    @Test func theTimeEstimateNeverGrowsWhileWaiting() throws {
        // 10 of 40 seeds done at 100 s: 300 s left at that pace.
        var previous = try #require(Explore.remaining(done: 10, total: 40, estimatedAt: 100, elapsed: 100))
        #expect(previous == 300)
        for elapsed in stride(from: 101.0, through: 500, by: 7) {
            let now = try #require(Explore.remaining(done: 10, total: 40, estimatedAt: 100, elapsed: elapsed))
            #expect(now <= previous && now >= 0, "at \(elapsed) s: \(now) after \(previous)")
            #expect(elapsed > 400 || abs(now - (300 - (elapsed - 100))) < 1e-9)
            previous = now
        }
        // The next seed done re-estimates from the work done: 11 seeds in 140 s.
        #expect(try #require(Explore.remaining(done: 11, total: 40, estimatedAt: 140, elapsed: 140)) == 140.0 / 11 * 29)
        #expect(Explore.remaining(done: 0, total: 40, estimatedAt: 0, elapsed: 50) == nil)
    }

    @Test func noProgressWhenStderrIsNotATerminal() throws {
        let r = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "2", "--scale", "0.2"])
        #expect(!r.stderr.contains("explore: "))
    }

    /// Under a pseudo-terminal (util-linux `script`), the line counts up to the total.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnATerminal() throws {
        let command = Shell.command([CLI.executable.path, "explore", "scenarios/races/unguarded-completion.json", "--seeds", "2", "--scale", "0.2"])
        let r = try CLI.run(["-qec", command + " >/dev/null", "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(r.stdout.contains("\rexplore: 2/2 seeds, 2 failing, ETA 0 s"), "\(r.stdout)")
    }
}

@Suite struct VariantSignatureTests {
    /// Every variant of the reference logic, each listed once, has the violation kind
    /// that names its bug, and every such kind is one the oracle reports.
    @Test func everyVariantHasAKnownKind() {
        #expect(Set(ReferenceLogics.variantNames).count == ReferenceLogics.variantNames.count)
        let kinds = Set(ViolationKind.allCases.map(\.rawValue))
        for (variant, kind) in ReferenceLogics.variantKinds { #expect(kinds.contains(kind), "\(variant): \(kind)") }
    }
}
