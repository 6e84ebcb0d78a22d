import Foundation
import Reports
import Testing
@testable import FleetSimCLI

/// The parser and the help, in process: `FleetSimCommand.parse` takes a plain
/// `[String]` and reads no file.
@Suite struct HelpTests {
    static let names = FleetSimCommand.commands.map { type in type.help.name }

    /// The promised commands all exist, each with its own help.
    @Test func everyPromisedCommandHasHelp() throws {
        #expect(Self.names == ["run", "validate", "replay", "explore", "compare", "bench", "shrink", "merge", "diverge", "plan", "whatif"])
    }

    /// `help CMD`, `CMD --help` and `CMD -h` print that command's help: usage, every
    /// option with its default, and an example.
    @Test(arguments: names) func commandHelp(_ name: String) throws {
        let type = try FleetSimCommand.command(named: name)
        let text = type.help.text
        for args in [["help", name], [name, "--help"], [name, "-h"], [name, "some.json", "--bogus", "-h"]] {
            guard case .help(let printed) = try FleetSimCommand.parse(args) else {
                Issue.record("\(args) did not ask for help")
                continue
            }
            #expect(printed == text, "\(args)")
        }
        #expect(text.hasPrefix("fleetsim \(name): "))
        #expect(text.contains("USAGE\n  fleetsim \(name)"))
        #expect(text.contains("EXAMPLE"))
        #expect(text.contains("-h, --help"))
        for option in type.help.options {
            #expect(text.contains("--\(option.name)"), "\(name): --\(option.name)")
            if let d = option.defaultValue { #expect(text.contains("(default: \(d))"), "\(name): --\(option.name)") }
            if option.required { #expect(text.contains("--\(option.name) \(option.value ?? "") (required)") || text.contains("(required)")) }
        }
        // No other command's help leaks in.
        for other in Self.names where other != name { #expect(!text.contains("fleetsim \(other):")) }
    }

    @Test func overviewListsEveryCommandAndBareIsAnError() throws {
        guard case .help(let overview) = try FleetSimCommand.parse(["help"]) else { Issue.record("help"); return }
        for type in FleetSimCommand.commands { #expect(overview.contains(type.help.usage)) }
        guard case .help(let same) = try FleetSimCommand.parse(["--help"]) else { Issue.record("--help"); return }
        #expect(same == overview)
        // `help help` is the overview too (it answered "unknown command 'help'; did you mean 'help'?").
        guard case .help(let helpHelp) = try FleetSimCommand.parse(["help", "help"]) else { Issue.record("help help"); return }
        #expect(helpHelp == overview)
        guard case .missingCommand = try FleetSimCommand.parse([]) else { Issue.record("bare fleetsim"); return }
    }

    @Test func runHelpStatesTheMethodsAndDefaults() throws {
        #expect(Run.help.text.contains("--scale F             multiply every cohort's count by F"))
        #expect(Run.help.text.contains("(default: reports/<scenario name>/)"))
        #expect(Explore.help.text.contains("t(0.975, n-1)"))
        #expect(Compare.help.text.contains("Welch's t-test"))
        #expect(Compare.help.text.contains("Bonferroni"))
        #expect(Compare.help.text.contains("fleetsim compare --seeds BASE_DIR NEW_DIR"))
    }

    /// docs/cli.md shows the overview and every command's help verbatim, as it says
    /// (in process, so a stale help text is named even before the doc transcripts run).
    @Test func docsShowEveryHelpVerbatim() throws {
        let docs = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        for type in [Run.self, Explore.self, Merge.self] as [any Command.Type] {
            #expect(type.help.text.contains("--strict"))
        }
        for type in FleetSimCommand.commands {
            #expect(docs.contains("$ fleetsim help \(type.help.name)\n\(type.help.text)```"), "docs/cli.md: help \(type.help.name) differs")
        }
        #expect(docs.contains("```\n$ fleetsim help\n\(FleetSimCommand.overview)\n```"), "docs/cli.md: the overview differs")
    }
}

@Suite struct ParserTests {
    func usageMessage(_ args: [String]) -> String? {
        do { _ = try FleetSimCommand.parse(args) } catch {
            if case .usage(let message, _) = error { return message }
        }
        return nil
    }

    @Test func suggestsTheNearestCommandAndOption() {
        #expect(usageMessage(["rnu"]) == "unknown command 'rnu'; did you mean 'run'?")
        #expect(usageMessage(["explroe"])?.hasSuffix("did you mean 'explore'?") == true)
        #expect(usageMessage(["frobnicate"]) == "unknown command 'frobnicate'")
        #expect(usageMessage(["run", "x.json", "--sede", "3"]) == "unknown option '--sede' for 'fleetsim run'; did you mean '--seed'?")
        #expect(usageMessage(["run", "x.json", "-seed", "3"])?.hasSuffix("did you mean '--seed'?") == true)
        #expect(usageMessage(["explore", "x.json", "--seeds", "2", "--frist", "3"])?.hasSuffix("did you mean '--first'?") == true)
        #expect(usageMessage(["run", "x.json", "--variants", "refresh.unguardedCompletoin"])?.contains("did you mean 'refresh.unguardedCompletion'?") == true)
        #expect(usageMessage(["help", "rnu"]) == "unknown command 'rnu'; did you mean 'run'?")
    }

    @Test func optionForms() throws {
        guard case .command(let a) = try FleetSimCommand.parse(["run", "x.json", "--seed=3", "--scale", "0.5", "--quiet"]), let run = a as? Run else {
            Issue.record("run"); return
        }
        #expect(run.options.seed == 3)
        #expect(run.options.scale?.factor == 0.5)
        #expect(run.quiet)
        #expect(run.options.replayArguments == ["--scale", "0.5"])
        guard case .command(let b) = try FleetSimCommand.parse(["validate", "--", "-odd.json"]), let validate = b as? Validate else {
            Issue.record("--"); return
        }
        #expect(validate.path == "-odd.json")
        #expect(usageMessage(["run", "x.json", "--seed", "1", "--seed", "2"]) == "--seed is given twice")
        #expect(usageMessage(["run", "x.json", "--quiet=yes"]) == "--quiet takes no value")
        #expect(usageMessage(["run", "x.json", "--seed"]) == "--seed needs a value (N)")
        #expect(usageMessage(["run", "x.json", "--seed", "--quiet"]) == "--seed needs a value (N)")
        #expect(usageMessage(["run", "x.json", "--scale", "-1"]) == "--scale must be greater than 0 and at most 10000000 (one world simulates at most 10000000 devices; shard larger fleets), found -1")
        #expect(usageMessage(["run", "x.json", "--scale", "0"]) == "--scale must be greater than 0 and at most 10000000 (one world simulates at most 10000000 devices; shard larger fleets), found 0")
        #expect(usageMessage(["run", "x.json", "--scale", "1e15"]) == "--scale must be greater than 0 and at most 10000000 (one world simulates at most 10000000 devices; shard larger fleets), found 1e15")
        #expect(usageMessage(["explore", "x.json"]) == "explore needs --seeds N or --replications R")
        #expect(usageMessage(["explore", "x.json", "--seeds", "0"]) == "--seeds must be at least 1, found 0")
        #expect(usageMessage(["run"]) == "missing SCENARIO file")
        #expect(usageMessage(["run", "a.json", "b.json"]) == "unexpected argument 'b.json'")
        #expect(usageMessage(["compare", "a.json"]) == "missing CURRENT")
        #expect(usageMessage(["merge", "--out", "x"]) == "missing REPORT.json (the shards' reports)")
        #expect(usageMessage(["merge", "a.json"]) == "merge needs --out DIR")
        #expect(usageMessage(["run", "x.json", "--shard", "4/4"]) == "--shard expects K/N with 0 <= K < N (e.g. 2/4), found '4/4'")
        #expect(usageMessage(["shrink", "a.json", "--max-runs", "0"]) == "--max-runs must be greater than 0, found 0")
        #expect(usageMessage(["diverge"]) == "missing SCENARIO file")
        #expect(usageMessage(["diverge", "--traces", "a.txt"]) == "missing second event file B")
    }

    /// The smallest scale that keeps a cohort: `count × F` must round to 1, i.e.
    /// F ≥ 0.5 / count; the suggestion is at most 10 % above that bound.
    @Test(arguments: [1, 2, 3, 7, 600, 999, 1000, 4200, 123_457])
    func smallestScaleKeepsOneDeviceAndNoLess(_ count: Int) throws {
        let text = ScenarioOptions.smallestScale(keeping: count)
        let f = try #require(Double(text))
        #expect((Double(count) * f).rounded() >= 1, "\(count): \(text)")
        #expect((Double(count) * f * 0.9).rounded() == 0, "\(count): \(text)")
        #expect(text.count <= 12 && !text.hasSuffix("0"), "\(text)")
    }

    @Test func smallestScaleExamples() {
        #expect(ScenarioOptions.smallestScale(keeping: 1) == "0.5")
        #expect(ScenarioOptions.smallestScale(keeping: 1000) == "0.0005")
        #expect(ScenarioOptions.smallestScale(keeping: 3) == "0.17")
        #expect(ScenarioOptions.smallestScale(keeping: 4200) == "0.00012")
    }
}

@Suite struct ShellAndOutputTests {
    @Test func quotingIsPOSIX() {
        #expect(Shell.quote("scenarios/races/x.json") == "scenarios/races/x.json")
        #expect(Shell.quote("--scale") == "--scale")
        #expect(Shell.quote("a b") == "'a b'")
        #expect(Shell.quote("it's") == #"'it'\''s'"#)
        #expect(Shell.quote("") == "''")
        #expect(Shell.quote("$HOME;rm") == "'$HOME;rm'")
    }

    /// What the shell reads back is exactly the arguments.
    @Test func quotedArgumentsSurviveTheShell() throws {
        let args = ["plain", "a b", "it's", "", "$HOME", "*", "back\\slash", "new\nline", "ü"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "for a in " + Shell.command(args) + "; do printf '[%s]' \"$a\"; done"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(out == args.map { "[\($0)]" }.joined())
    }

    @Test func replayCommandWindow() {
        let text = ReplayCommand.text(executable: "/opt/my tools/fleetsim", scenario: "s.json", seed: 7, device: 3, timeSeconds: 958.013, options: ["--scale", "0.5"])
        #expect(text == "'/opt/my tools/fleetsim' replay s.json --seed 7 --device 3 --from 658s --to 1018s --scale 0.5")
        // Within the first five minutes the window starts at 0.
        #expect(ReplayCommand.text(executable: "f", scenario: "s", seed: 1, device: 0, timeSeconds: 299.999999, options: []).contains("--from 0s --to 359s"))
    }

    @Test func outputDirectoryProblems() throws {
        let dir = try CLI.temporaryDirectory()
        #expect(OutputDirectory.problem(with: dir.path) == nil)
        let fresh = dir.appendingPathComponent("a/b/c").path
        #expect(OutputDirectory.problem(with: fresh) == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path), "the check creates nothing")
        let file = try CLI.write("x", to: "file", in: dir)
        #expect(OutputDirectory.problem(with: file) == "it exists and is not a directory")
        #expect(OutputDirectory.problem(with: file + "/sub") == "'\(file)' is a file, not a directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["file"], "no probe file left behind")
    }
}

/// The console speaks the reports' unit system (MetricText): one spelling per figure.
@Suite struct MetricUnitsTests {
    @Test(arguments: [
        ("latency.pushCreatedToDelivered.high.p95", 18_000.0, "5.0 h"),
        ("latency.refreshTaskDuration.max", 0.253, "253 ms"),
        ("latency.testAvailableToNotified.count", 14.0, "14"),
        ("backend.queueing.p99", 12.0, "12 s"),
        ("scheduling.fcm.dozeDelay.p50", 305.1, "5.1 min"),
        ("battery.ios.radioActiveSecondsPerDeviceDay.mean", 137.688, "2.3 min"),
        ("battery.ios.energyPerSync.mAh.p95", 0.8342, "0.83 mAh"),
        ("battery.ios.appEnergyPerDeviceDay.percentOfCapacity.p50", 0.22286, "0.223 %"),
        ("push.deliveryRate", 0.9942, "99.4 %"),
        ("backend.load.apiHeadroom", 0.656, "65.6 %"),
        ("backend.queue.byEndpoint./v1/test/active.busyWorkerMicroseconds", 8_951_252.0, "9.0 s"),
        ("backend.requestsPerSecond.peak", 1046.0, "1,046 req/s"),
        ("backend.requests.total", 688_275.0, "688,275"),
        ("invariants.violations", 0.0, "0"),
    ]) func humanUnits(_ metric: String, _ value: Double, _ expected: String) {
        #expect(MetricText.format(value, path: metric) == expected)
    }

    @Test func identityAndConfigurationAreNotMetrics() {
        for key in ["scenario", "seed", "fleetsimVersion", "simulated.devices", "simulated.duration", "simulated.start", "simulated.events",
                    "backend.capacity.workers", "battery.ios.capacityMah", "battery.ios.budget.perRefreshPercent", "backend.pushes.apns.concurrency",
                    "backend.load.bucketSeconds", "latencyOverTime.bucketSeconds"] {
            #expect(!ReportMetrics.isMetric(key), "\(key)")
        }
        // A histogram's own numbers are microseconds and bucket counts: data, not metrics.
        for key in ["backend.queueing.histogram.max", "latency.stepsRecordedToSynced.histogram.count", "battery.ios.appEnergyPerDeviceDay.mAh.distribution.digits"] {
            #expect(!ReportMetrics.isMetric(key), "\(key)")
        }
        for key in ["latency.testAvailableToNotified.p95", "invariants.violations", "backend.requests.total", "battery.ios.devicesOverBudget"] {
            #expect(ReportMetrics.isMetric(key), "\(key)")
        }
    }
}
