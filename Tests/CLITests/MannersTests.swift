import Foundation
import Testing
@testable import FleetSimCLI
import Reports

/// The CLI as a user meets it: exit codes, where text goes, and checks that happen
/// before any simulation.
@Suite struct MannersTests {
    @Test func helpExitsZeroBareFleetsimExitsTwo() throws {
        let runHelp = try CLI.run(["run", "--help"])
        #expect(runHelp.status == 0)
        #expect(runHelp.stdout.hasPrefix("fleetsim run: "))
        #expect(runHelp.stdout.contains("USAGE\n  fleetsim run SCENARIO"))
        let h = try CLI.run(["run", "-h"])
        #expect(h.status == 0 && h.stdout == runHelp.stdout)
        let explore = try CLI.run(["help", "explore"])
        #expect(explore.status == 0)
        #expect(explore.stdout.hasPrefix("fleetsim explore: "))
        #expect(explore.stdout.contains("--seeds N"))
        let bare = try CLI.run([])
        #expect(bare.status == 2)
        #expect(bare.stdout.isEmpty)
        #expect(bare.stderr.contains("USAGE"))
        let typo = try CLI.run(["rnu", "scenarios/default.json"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean 'run'?"))
        let option = try CLI.run(["run", "scenarios/default.json", "--sede", "3"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("did you mean '--seed'?"))
        #expect(option.stderr.contains("Run 'fleetsim help run' for usage."))
    }

    /// `--scale` that leaves a cohort empty names it and the smallest scale that keeps
    /// it; at that scale the run goes ahead.
    @Test func scaleThatEmptiesACohortIsRefused() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("""
        {"name": "two", "duration": "1h", "fleet": [{"cohort": "big", "count": 1000, "platform": "ios"},
                                                     {"cohort": "few", "count": 3, "platform": "android"}]}
        """, to: "two.json", in: dir)
        let out = dir.appendingPathComponent("out").path
        let refused = try CLI.run(["run", file, "--scale", "0.16", "--out", out])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--scale 0.16 leaves cohort 'few' (3 devices; keeps one from --scale 0.17) with 0 devices"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("'big'"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let kept = try CLI.run(["replay", file, "--device", "170", "--scale", "0.17", "--to", "1s"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let both = try CLI.run(["explore", file, "--seeds", "1", "--scale", "0.0004"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("cohorts 'big' (1000 devices; keeps one from --scale 0.0005), 'few'"))
        #expect(both.stderr.contains("the smallest scale that keeps every cohort is 0.17"))
    }

    /// A bad `--out` is found before anything is simulated: exit 2, the path and the reason.
    @Test func unwritableOutIsFoundFirst() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("x", to: "file", in: dir)
        for command in [["run", "scenarios/races/unguarded-completion.json"], ["explore", "scenarios/races/unguarded-completion.json", "--seeds", "2"]] {
            let r = try CLI.run(command + ["--out", file + "/reports"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("--out \(file)/reports: cannot write there: '\(file)' is a file, not a directory"), "\(r.stderr)")
            #expect(!r.stderr.contains("wall time") && r.stdout.isEmpty, "nothing ran")
        }
    }

    /// Every unusable `--out` is refused before simulating, by run, merge, explore and
    /// shrink: an empty path (it wrote into `/`), a symbolic link to nothing or in a
    /// loop, a name above 255 bytes, a path too long for the system; and the directories
    /// tried on the way are removed again.
    @Test func unusableOutPathsAreRefusedUpFront() throws {
        let dir = try CLI.temporaryDirectory()
        let dangling = dir.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.appendingPathComponent("nowhere").path)
        let loop = dir.appendingPathComponent("loop").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let deep = dir.path + String(repeating: "/ab", count: 1_400)
        let cases: [(out: String, reason: String)] = [
            ("", "--out '': cannot write there: the path is empty"),
            (dangling, "is a symbolic link to nothing"),
            (loop + "/x", "Too many levels of symbolic links"),
            (dir.path + "/" + String(repeating: "a", count: 256), "is 256 bytes long; file systems allow at most 255"),
            (deep, "leave room for the report files' names"),
        ]
        let scenario = "scenarios/races/unguarded-completion.json"
        for (out, reason) in cases {
            for command in [["run", scenario], ["explore", scenario, "--seeds", "1"], ["merge", "a.json"]] {
                let r = try CLI.run(command + ["--out", out])
                #expect(r.status == 2 && r.stderr.contains(reason) && r.stdout.isEmpty, "\(command) \(out.prefix(80)): \(r.stderr)")
            }
        }
        let shrink = try CLI.run(["shrink", scenario, "--out", dangling + "/x.json"])
        #expect(shrink.status == 2 && shrink.stderr.contains("is a symbolic link to nothing"), "\(shrink.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["dangling", "loop"])
        // A path that can be made is tried and left as it was.
        #expect(OutputDirectory.problem(with: dir.path + "/new/deeper") == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/new"))
    }

    /// A device given as a report is refused before anything is read.
    @Test func aDeviceIsNoReport() throws {
        for command in [["merge", "/dev/zero", "--out", "/tmp/never-\(UUID().uuidString)"], ["compare", "/dev/zero", "/dev/zero"]] {
            let r = try CLI.run(command)
            #expect(r.status == 2 && r.stderr.contains("/dev/zero: expected a report.json, found a device"), "\(r.stderr)")
        }
    }

    /// A file name that is not UTF-8 is refused (it was replaced by U+FFFD: an input not
    /// found, reports written under another name).
    @Test func nonUTF8ArgumentsAreRefused() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "exec \"$0\" run scenarios/default.json --out \"$(printf 'out-\\377')\"", CLI.executable.path]
        shell.currentDirectoryURL = CLI.packageRoot
        let err = Pipe()
        shell.standardError = err
        try shell.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 2 && text.contains("argument 4") && text.contains("is not valid UTF-8"), "\(text)")
    }

    /// `--out o` (one relative component) used to trap in Foundation's path code: the
    /// parent of a path is found by FleetSim's own code.
    @Test func outWithOneRelativeComponentIsChecked() {
        #expect(OutputDirectory.parent(of: "o") == ".")
        #expect(OutputDirectory.parent(of: "a/b/") == "a")
        #expect(OutputDirectory.parent(of: "/x") == "/")
        #expect(OutputDirectory.parent(of: "a/b/c") == "a/b")
        #expect(OutputDirectory.problem(with: "fleetsim-out-check-\(getpid())") == nil)
    }

    /// Printed replay commands start with the binary as invoked, quote what needs
    /// quoting, and run as printed.
    @Test func printedReplayCommandRunsInAShell() throws {
        let dir = try CLI.temporaryDirectory().appendingPathComponent("a dir with 'quotes'")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scenario = try String(contentsOf: CLI.packageRoot.appendingPathComponent("scenarios/races/unguarded-completion.json"), encoding: .utf8)
        let file = try CLI.write(scenario, to: "race.json", in: dir)
        let r = try CLI.run(["run", file, "--scale", "0.5", "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains(" replay ") })
        let command = line.trimmingCharacters(in: .whitespaces)
        #expect(command.hasPrefix(CLI.executable.path + " replay '"), "\(command)")
        #expect(command.contains(#"'\''quotes'\''"#))
        #expect(command.hasSuffix(" --scale 0.5"))
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", command]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let story = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 1, "the story shows the violation")
        #expect(story.contains("ORACLE: violation taskCompletedTwice"))
        // report.json keeps the machine-independent spelling (a bare fleetsim), quoted
        // by the same rule.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/report.json"))) as? [String: Any])
        let replay = try #require(((report["invariants"] as? [String: Any])?["samples"] as? [[String: Any]])?.first?["replay"] as? String)
        #expect(replay.hasPrefix("fleetsim replay \(Shell.quote(file)) --seed 1 --device ") && replay.contains(#"'\''quotes'\''"#), "\(replay)")
    }

    /// A failed expectation says its value and its limit in the metric's unit ("1ms" in
    /// the file reads `1 ms`), and the file.
    @Test func failedExpectationShowsValueLimitAndFile() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("""
        {"name": "slow", "duration": "1d", "fleet": [{"cohort": "a", "count": 10, "platform": "ios"}],
         "expect": [{"metric": "latency.refreshTaskDuration.max", "max": "1ms"}, {"metric": "invariants.violations", "max": 0}]}
        """, to: "slow.json", in: dir)
        let r = try CLI.run(["run", file, "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL expectation") })
        #expect(line.hasPrefix("FAIL expectation latency.refreshTaskDuration.max = "))
        #expect(line.hasSuffix(" ms, limit max 1 ms (\(file))") || line.hasSuffix(" s, limit max 1 ms (\(file))"), "\(line)")
        // report.json keeps the bound in seconds and as written; the reports show it in the value's unit.
        let report = try String(contentsOf: dir.appendingPathComponent("out/report.json"), encoding: .utf8)
        #expect(report.contains("\"max\": 0.001000,\n      \"maxAsWritten\": \"1ms\""), "\(report)")
        let markdown = try String(contentsOf: dir.appendingPathComponent("out/report.md"), encoding: .utf8)
        #expect(markdown.contains("| ≤ 1 ms |"), "\(markdown)")
        #expect(!r.stdout.contains("invariants.violations ="), "a passing expectation is not printed")
        #expect(r.stdout.contains("10 devices, 24.0 h simulated"))
        #expect(r.stdout.range(of: #"\d\.\d{6}"#, options: .regularExpression) == nil, "no six-decimal seconds: \(r.stdout)")
    }
}
