import Foundation
import Testing
@testable import FleetSimCLI

@Suite struct RunTests {
    /// The shipped race scenario: the variant is caught (exit 1, replay hint printed);
    /// `--variants none` runs the correct logic on the same seed and passes. (Both runs
    /// are the shared ones: ``SharedRuns``.)
    @Test func raceScenarioFailsWithItsVariantAndPassesWithout() throws {
        let run = try SharedRuns.caught.get()
        let (caught, out) = (run.result, run.out)
        #expect(caught.status == 1)
        #expect(caught.stdout.contains("taskCompletedTwice"))
        #expect(caught.stdout.contains("fleetsim replay scenarios/races/unguarded-completion.json --seed 1 --device "))
        let report = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("\"taskCompletedTwice\": "))
        for name in ["report.md", "report.html", "junit.xml"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path))
        }

        let clean = try SharedRuns.clean.get().result
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("0 invariant violation(s)"))
    }

    /// A bad scenario writes nothing: no partial report.
    @Test func badScenarioWritesNoReport() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(#"{"name": "x", "duration": "2d", "fleet": []}"#, to: "bad.json", in: dir)
        let out = dir.appendingPathComponent("out")
        let r = try CLI.run(["run", file, "--out", out.path])
        #expect(r.status == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// `replay` prints the story of one device with UTC and local times, and the
    /// oracle's verdict at its instant (exit 1: the story shows a violation).
    @Test func replayShowsTheViolatingEvent() throws {
        let r = try CLI.run(["replay", "scenarios/races/unguarded-completion.json", "--seed", "1", "--device", "60", "--from", "1010s", "--to", "1020s"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("logic -> completeTask(success: false)"))
        #expect(r.stdout.contains("ORACLE: violation taskCompletedTwice"))
        #expect(r.stdout.contains("2026-03-02T00:16:58.509Z"))
        #expect(r.stdout.hasPrefix("Replay of device 60, scenario 'race-unguarded-completion', seed 1, from 1010s to 17m into the run"))
    }

    @Test func usageErrorsExitTwo() throws {
        for args in [[], ["frobnicate"], ["run"], ["run", "scenarios/default.json", "--seed", "minus-one"],
                     ["run", "scenarios/default.json", "--bogus"], ["merge", "a.json"],
                     ["run", "scenarios/default.json", "--variants", "refresh.nope"]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
        }
        let help = try CLI.run(["help"])
        #expect(help.status == 0)
        for command in ["run SCENARIO", "validate SCENARIO", "replay SCENARIO", "bench"] { #expect(help.stdout.contains(command)) }
    }

    /// The bench cross-checks the kernel against the independent implementation.
    @Test func benchPrintsTheReferenceCount() throws {
        let r = try CLI.run(["bench", "--quick", "--devices", "200"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("1120211 events (expected 1120211: match)"))
        #expect(r.stdout.contains("bytes of state per device"))
        #expect(r.stdout.contains("the API grows with the fleet: 64 workers and 10000 queue places per 10000 devices"))
    }

    /// `--devices` takes a list, run smallest first (each peak RSS is then its own), and
    /// each size gets its device-days/s and its bytes per device.
    @Test func benchRunsEachFleetSizeSmallestFirst() throws {
        let r = try CLI.run(["bench", "--quick", "--devices", "300,100"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").filter { $0.contains(" devices: ") }
        #expect(lines.count == 2)
        #expect(lines.first?.contains("     100 devices: ") == true)
        #expect(lines.last?.contains("     300 devices: ") == true)
        // The smallest size is the others' yardstick for the cost: the best of five runs.
        #expect(lines.first?.contains("cost x1.00 (the yardstick: best of 5 runs)") == true)
        #expect(r.stdout.contains("target: cost per device-day within x1.25 of the smallest size's: "))
        #expect(lines.allSatisfy { $0.contains("device-days/s") && $0.contains("bytes/device all-in") })
        // Each size's memory split: device state, the pending-event set and the rest.
        let splits = r.stdout.split(separator: "\n").filter { $0.contains("bytes/device: ") }
        #expect(splits.count == 2)
        #expect(splits.allSatisfy { $0.contains(" device state (") && $0.contains("-byte entries") })
        let bad = try CLI.run(["bench", "--quick", "--devices", "100,0"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--devices expects device counts of at least 1"))
    }

    /// `--repeat R` runs each size R times and shows the best time, with the same event
    /// count and memory lines; fewer than one run is refused.
    @Test func benchRepeatsEachSizeForTheBestTime() throws {
        let r = try CLI.run(["bench", "--quick", "--devices", "100", "--repeat", "2"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("set-up included, best of 2 runs"))
        #expect(r.stdout.split(separator: "\n").filter { $0.contains(" devices: ") }.count == 1)
        #expect(r.stdout.contains("transparent huge pages: "))
        let bad = try CLI.run(["bench", "--quick", "--repeat", "0"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--repeat must be at least 1, found 0"))
    }
}

@Suite struct RobustnessTests {
    /// Valid but extreme values run (or are refused with exit 2): never a crash.
    @Test func extremeValuesNeverCrash() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("""
        {"name": "extreme", "duration": "2d",
         "fleet": [{"cohort": "a", "count": 20, "platform": "ios",
                    "usage": {"appOpensPerDay": 1e-9}, "network": {"offlineSpellsPerDay": 1e-12},
                    "lastTestDaysAgo": {"constant": 1e300}}],
         "faults": [{"kind": "backendSlowdown", "at": "1h", "duration": "1h", "factor": 1e300},
                    {"kind": "appTermination", "at": "0s", "rate": 1e-12}]}
        """, to: "extreme.json", in: dir)
        let run = try CLI.run(["run", file, "--out", dir.appendingPathComponent("out").path, "--quiet"])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        for args in [["run", file, "--scale", "1e9"], ["explore", file, "--seeds", "2", "--scale", "-1"], ["replay", file, "--device", "0", "--scale", "0"]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("--scale"))
        }
        let long = try CLI.write(#"{"name": "long", "duration": "200000d", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}"#, to: "long.json", in: dir)
        let r = try CLI.run(["validate", long])
        #expect(r.status == 2)
        #expect(r.stderr.contains("$.duration"))
    }

    /// Replay commands repeat the options that changed the scenario (the shared run at
    /// `--scale 0.5`).
    @Test func replayCommandsCarryTheRunsOptions() throws {
        let run = try SharedRuns.half.get()
        let (r, out) = (run.result, run.out)
        #expect(r.status == 1)
        #expect(r.stdout.contains("s --scale 0.5\n"))
        let report = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("s --scale 0.5\""))
    }

    /// The 1970 boundary of local dates: a start at which a UTC−10 cohort is still in
    /// 1969 is refused by validate (it gave false stepsNeverSynced violations); one at
    /// its local midnight of 1970-01-01 runs without a violation.
    @Test func aStartBeforeLocal1970IsRefusedAndLocalMidnightRuns() throws {
        let dir = try CLI.temporaryDirectory()
        var text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("scenarios/default.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"duration\": \"7d\"", with: "\"duration\": \"2d\"")
        text = try NSRegularExpression(pattern: "\"start\": \"[^\"]*\"").stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\"start\": \"START\"")
        text = try NSRegularExpression(pattern: "\"timeZones\": \\{[^}]*\\}").stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\"timeZones\": {\"Etc/GMT+10\": 1}")
        let early = try CLI.write(text.replacingOccurrences(of: "START", with: "1969-12-31T20:00:00Z"), to: "early.json", in: dir)
        let refused = try CLI.run(["validate", early])
        #expect(refused.status == 2 && refused.stderr.contains("$.start: expected a start at which every cohort's local date is 1970-01-01 or later"), "\(refused.stderr)")
        let midnight = try CLI.write(text.replacingOccurrences(of: "START", with: "1970-01-01T10:00:00Z"), to: "midnight.json", in: dir)
        let r = try CLI.run(["run", midnight, "--scale", "0.01", "--out", dir.appendingPathComponent("out").path, "--quiet"])
        #expect(r.stdout.contains("100 devices, 48.0 h simulated") && r.stdout.contains("; 0 invariant violation(s)"), "\(r.stdout) \(r.stderr)")
    }

    /// report.json names the scenario by one canonical path, however it was typed.
    @Test func theScenarioPathInReportsIsCanonical() throws {
        #expect(ScenarioOptions.canonicalPath("./a//b/../x.json", currentDirectory: "/w") == "a/x.json")
        #expect(ScenarioOptions.canonicalPath("/w/x.json", currentDirectory: "/w") == "x.json")
        #expect(ScenarioOptions.canonicalPath("../y/x.json", currentDirectory: "/w/v") == "/w/y/x.json")
        #expect(ScenarioOptions.canonicalPath("/wx/x.json", currentDirectory: "/w") == "/wx/x.json")
        let dir = try CLI.temporaryDirectory()
        var reports: [String] = []
        let file = "scenarios/races/unguarded-completion.json"
        for typed in [file, "./" + file, CLI.packageRoot.appendingPathComponent(file).path] {
            let out = dir.appendingPathComponent(UUID().uuidString)
            let r = try CLI.run(["run", typed, "--scale", "0.1", "--out", out.path, "--quiet"])
            #expect(r.status == 1, "\(r.stderr)")
            reports.append(try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8))
        }
        #expect(reports[0].contains("fleetsim replay \(file) --seed"))
        #expect(reports[1] == reports[0] && reports[2] == reports[0])
    }
}
