import Foundation
import Reports
import Testing
@testable import FleetSimCLI

/// The command line's edges as a new user meets them: each refused up front in the
/// words of the command given, or reported for what it is.
@Suite struct CLIEdgeTests {
    static let race = "scenarios/races/unguarded-completion.json"

    func usageMessage(_ args: [String]) -> String? {
        do { _ = try FleetSimCommand.parse(args) } catch {
            if case .usage(let message, _) = error { return message }
        }
        return nil
    }

    /// shrink checks --out before its search (up to 120 s), as run and explore do.
    @Test func shrinkRefusesAnUnwritableOutBeforeSearching() throws {
        let r = try CLI.run(["shrink", Self.race, "--out", "/proc/x/y.json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--out /proc/x/y.json: cannot write there"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "no search ran: \(r.stdout)")
    }

    /// A window that ends before it starts, or starts after the run, is refused; a --to
    /// past the end (a violation in the run's last minute) replays to the end and says so.
    @Test func replayWindowsOutsideTheRun() throws {
        let backwards = try CLI.run(["replay", Self.race, "--device", "0", "--from", "2000s", "--to", "1000s"])
        #expect(backwards.status == 2)
        #expect(backwards.stderr.contains("--from 2000s is after --to 1000s"), "\(backwards.stderr)")
        let late = try CLI.run(["replay", Self.race, "--device", "0", "--from", "49h"])
        #expect(late.status == 2)
        #expect(late.stderr.contains("--from 49h is after the end of the run (2d)"), "\(late.stderr)")
        let dir = try CLI.temporaryDirectory()
        let short = try CLI.write("""
        {"name": "short", "duration": "10s", "fleet": [{"cohort": "a", "count": 1, "platform": "ios"}]}
        """, to: "short.json", in: dir)
        let past = try CLI.run(["replay", short, "--device", "0", "--to", "70s"])
        #expect(past.status == 0)
        #expect(past.stderr.contains("note: --to 70s is after the end of the run; replaying to the end (10s)"), "\(past.stderr)")
        #expect(past.stdout.hasPrefix("Replay of device 0, scenario 'short', seed "), "\(past.stdout)")
        #expect(past.stdout.contains(" from 0s to 10s into the run"), "\(past.stdout)")
    }

    /// replay exits 1 when the story it prints ends in a VIOLATION (as run would), 0 when not.
    @Test func replayExitsOneOnAViolation() throws {
        let violated = try CLI.run(["replay", Self.race, "--seed", "1", "--device", "60", "--from", "990s", "--to", "1020s"])
        #expect(violated.status == 1, "\(violated.stderr)")
        #expect(violated.stdout.split(separator: "\n").last?.hasPrefix("VIOLATION taskCompletedTwice at ") == true)
        let quiet = try CLI.run(["replay", Self.race, "--seed", "1", "--device", "60", "--to", "60s"])
        #expect(quiet.status == 0, "\(quiet.stdout)")
        #expect(!quiet.stdout.contains("VIOLATION"))
        // Device 1's double completion (2.2 h) is not among the report's samples (the 3
        // earliest of the kind: devices 60, 54, 288): the story still shows it, and says so.
        let unsampled = try CLI.run(["replay", Self.race, "--seed", "1", "--device", "1", "--to", "6h"])
        #expect(unsampled.status == 1, "\(unsampled.stdout.suffix(300))")
        #expect(unsampled.stdout.split(separator: "\n").last?.hasPrefix("VIOLATION taskCompletedTwice at 2026-03-02T02:09:21.153Z (2.2 h into the run): ") == true)
    }

    /// The known-bug variant changes what the logic does within the same events: the
    /// event streams agree, the outcomes do not, and diverge says so (exit 1).
    @Test func divergeReportsOutcomesThatDifferOnTheSameEvents() throws {
        let r = try CLI.run(["diverge", Self.race, "--against-variants", "none"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("The runs delivered the same events (events.hash.total "), "\(r.stdout)")
        #expect(r.stdout.contains("but their outcomes differ: the logic acted differently within the same events."), "\(r.stdout)")
        #expect(r.stdout.range(of: #"\n  invariants\.violations: [1-9][0-9]* \(variants \(the file's\)\) vs 0 \(variants none\)\n"#, options: .regularExpression) != nil, "\(r.stdout)")
        #expect(r.stdout.contains("  expectations: invariants.violations fail (variants (the file's)) vs invariants.violations pass (variants none)"), "\(r.stdout)")
    }

    @Test func divergeNamesABinaryThatWroteNoReport() throws {
        let r = try CLI.run(["diverge", Self.race, "--seed", "1", "--against", "/bin/true"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("/bin/true: '/bin/true run ... --out DIR' exited 0 but wrote no report; is /bin/true a fleetsim build?"), "\(r.stderr)")
        #expect(!r.stderr.contains("fleetsim-diverge-"), "no temporary path: \(r.stderr)")
    }

    /// --seed defaults to the file's seed, as the help says; --against-variants is named as such.
    @Test func divergeOptions() {
        #expect(usageMessage(["diverge", "x.json", "--against-variants", "none"]) == nil)
        #expect(usageMessage(["diverge", "x.json", "--against-variants", "bogus"])?.hasPrefix("--against-variants: unknown variant 'bogus'") == true)
        #expect(Diverge.help.text.contains("--seed N                the random seed; replaces the file's \"seed\" (default: the file's seed)"))
    }

    /// compare says what it was given instead of a report: a scenario, a summary, a directory.
    @Test func compareNamesWhatIsNotAReport() throws {
        let dir = try CLI.temporaryDirectory()
        let report = "reports/baselines/default.json"
        let scenario = try CLI.run(["compare", "scenarios/default.json", report])
        #expect(scenario.status == 2)
        #expect(scenario.stderr == "error: scenarios/default.json: expected a report.json (written by fleetsim run or merge), found a scenario file (run it to get a report.json)\n")
        let explored = dir.appendingPathComponent("explored")
        try FileManager.default.createDirectory(at: explored, withIntermediateDirectories: true)
        _ = try CLI.write(#"{"format": "fleetsim-explore-summary/1"}"#, to: "summary.json", in: explored)
        let dirs = try CLI.run(["compare", explored.path, explored.path])
        #expect(dirs.status == 2)
        #expect(dirs.stderr.contains("\(explored.path): expected a report.json, found an explore --out directory: to compare two of them, add --seeds"), "\(dirs.stderr)")
        let summary = try CLI.run(["compare", explored.path + "/summary.json", report])
        #expect(summary.stderr.contains("found an explore summary.json (compare two explore --out directories with --seeds)"), "\(summary.stderr)")
    }

    /// compare lists user-facing metrics in their units: no histogram internals (whose
    /// `max` is in microseconds, read as seconds it was 877.1 d for 75.8 s).
    @Test func compareShowsNoHistogramInternals() throws {
        let keys = ReportMetrics.leaves(of: try Compare.readReport(CLI.packageRoot.path + "/reports/baselines/default.json")).keys
        #expect(keys.contains("backend.queueing.p99") && keys.contains("backend.queueing.max"))
        for key in keys { #expect(!key.contains("histogram") && !key.contains("distribution"), "\(key)") }
    }

    /// bench refuses a fleet one world cannot hold before the kernel model runs.
    @Test func benchRefusesTooManyDevicesUpFront() {
        #expect(usageMessage(["bench", "--devices", "20000000"]) == "--devices: one world simulates at most 10000000 devices, found 20000000")
    }

    /// --quiet means quiet: no wall-time line either.
    @Test func runQuietPrintsNothingOnStderr() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write(#"{"name": "q", "duration": "1h", "fleet": [{"cohort": "a", "count": 2, "platform": "ios"}]}"#, to: "q.json", in: dir)
        let quiet = try CLI.run(["run", file, "--out", dir.appendingPathComponent("out").path, "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        let loud = try CLI.run(["run", file, "--out", dir.appendingPathComponent("out").path])
        #expect(loud.stderr.hasPrefix("wall time "), "\(loud.stderr)")
    }

    /// validate warns of a fault after the run's end and of an empty cohort (exit 0: valid).
    @Test func validateWarnsOfWhatNeverHappens() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("""
        {"name": "w", "duration": "2d", "fleet": [{"cohort": "a", "count": 5, "platform": "ios"}, {"cohort": "off", "count": 0, "platform": "android"}],
         "faults": [{"kind": "backendOutage", "at": "3d", "duration": "1h"}, {"kind": "backendOutage", "at": "47h", "duration": "1h"}]}
        """, to: "w.json", in: dir)
        let r = try CLI.run(["validate", file])
        #expect(r.status == 0)
        #expect(r.stderr == """
        warning: \(file): $.fleet[1].count: cohort 'off' has 0 devices, so it simulates nothing
        warning: \(file): $.faults[0].at: the fault starts at 72.0 h, not before the end of the run (48.0 h), so it never happens

        """, "\(r.stderr)")
    }

    /// A replay command pasted from a report reproduces its violation from the directory
    /// the run started in, once `fleetsim` is on PATH (make install); the reports say so.
    /// (The shared run of the race scenario: ``SharedRuns``.)
    @Test func aReplayCommandFromTheReportsRunsAsPasted() throws {
        let dir = try CLI.temporaryDirectory()
        let run = try SharedRuns.caught.get()
        let out = run.out
        #expect(run.result.status == 1)
        let json = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        let replay = try #require(json.range(of: #""replay": "fleetsim replay scenarios/races/unguarded-completion\.json [^"]*""#, options: .regularExpression)
            .map { String(json[$0].dropFirst(11).dropLast()) })
        for name in ["report.md", "report.html", "junit.xml"] {
            // report.html keeps each option with its value in a nowrap span; as text it is the command.
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: #"<span class="arg">"#, with: "").replacingOccurrences(of: "</span>", with: "")
            #expect(text.contains(replay), "\(name) carries the replay command")
            #expect(text.contains(ReportSections.replayNote), "\(name) says which binary it means")
        }
        // As installed: `fleetsim` on PATH, pasted in the repository root.
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("fleetsim"), withDestinationURL: CLI.executable)
        let pasted = try CLI.run(["-c", "PATH=\"$0:$PATH\"; " + replay, bin.path], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(pasted.status == 1, "\(pasted.stderr)")
        #expect(pasted.stdout.split(separator: "\n").last?.hasPrefix("VIOLATION taskCompletedTwice at ") == true, "\(pasted.stdout.suffix(300))")
    }

    /// A scenario file whose name holds shell syntax: the replay command of every report
    /// (report.json, report.md, report.html, junit.xml) quotes it, so pasting it runs the
    /// replay and nothing else (here through `bash -c`, with `fleetsim` on PATH).
    @Test func replayCommandsInEveryReportAreQuotedForTheShell() throws {
        let dir = try CLI.temporaryDirectory()
        let name = "y$(touch PWNED2).json"
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent(Self.race), to: dir.appendingPathComponent(name))
        let run = try CLI.run(["run", name, "--scale", "0.5", "--out", "out", "--quiet"], in: dir)
        #expect(run.status == 1, "\(run.stderr)")
        let out = dir.appendingPathComponent("out")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let samples = try #require((report["invariants"] as? [String: Any])?["samples"] as? [[String: Any]])
        let replay = try #require(samples.first?["replay"] as? String)
        #expect(replay.hasPrefix("fleetsim replay 'y$(touch PWNED2).json' --seed "), "\(replay)")
        func unescaped(_ text: String) -> String {
            text.replacingOccurrences(of: #"<span class="arg">"#, with: "").replacingOccurrences(of: "</span>", with: "")
                .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        var pasted: [String] = []
        for file in ["report.md", "report.html", "junit.xml"] {
            let text = unescaped(try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8))
            let line = try #require(text.split(separator: "\n").first { $0.contains("fleetsim replay ") }, "\(file)")
            let command = String(line[line.range(of: "fleetsim replay ")!.lowerBound...]).components(separatedBy: "<")[0]
            #expect(command == replay, "\(file): \(command)")
            pasted.append(command)
        }
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("fleetsim"), withDestinationURL: CLI.executable)
        let r = try CLI.run(["-c", "PATH=\"$0:$PATH\"; " + pasted[0], bin.path], in: dir, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("VIOLATION "), "\(r.stdout.suffix(300))")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("PWNED2").path))
        #expect(!FileManager.default.fileExists(atPath: CLI.packageRoot.appendingPathComponent("PWNED2").path))
    }

    /// An existing --out whose parent cannot take a new directory (where the set is
    /// written first) is refused before simulating, not after (the results were lost);
    /// so is the root directory. As root the parent is made immutable (`chattr +i`),
    /// which root's writes also obey; otherwise read-only (mode 0555).
    @Test func anOutWhoseParentCannotTakeTheSetIsRefusedBeforeSimulating() throws {
        let dir = try CLI.temporaryDirectory()
        let parent = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: parent.appendingPathComponent("out"), withIntermediateDirectories: true)
        let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
        if getuid() == 0 {
            #expect(try CLI.run(["+i", parent.path], executable: chattr).status == 0, "chattr +i (root ignores mode 0555)")
        } else {
            #expect(chmod(parent.path, 0o555) == 0)
        }
        defer {
            if getuid() == 0 { _ = try? CLI.run(["-i", parent.path], executable: chattr) } else { chmod(parent.path, 0o755) }
        }
        for out in [parent.appendingPathComponent("out").path, "/"] {
            let r = try CLI.run(["run", Self.race, "--out", out])
            #expect(r.status == 2)
            #expect(r.stdout.isEmpty, "nothing simulated: \(r.stdout)")
            #expect(r.stderr.hasPrefix("error: --out \(out): cannot write there: "), "\(r.stderr)")
            let why = out == "/" ? (getuid() == 0 ? "the root directory cannot be swapped" : "cannot create a file in it")
                : "'\(parent.path)', cannot take a new directory"
            #expect(r.stderr.contains(why), "\(r.stderr)")
        }
    }

    /// An output never replaces an input (`run s.json --record-events s.json` wrote the
    /// event log over the scenario, exit 0): refused before running (exit 2), by file
    /// identity, so a link or another spelling of the path is caught, and the input
    /// is left as it was.
    @Test func anOutputThatIsAnInputIsRefused() throws {
        let dir = try CLI.temporaryDirectory()
        let scenario = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.race), encoding: .utf8)
        _ = try CLI.write(scenario, to: "s.json", in: dir)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("link.json"), withDestinationURL: dir.appendingPathComponent("s.json"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        _ = try CLI.write(scenario, to: "out/report.json", in: dir)
        let cases: [([String], String)] = [
            (["run", "s.json", "--record-events", "s.json", "--out", "r"], "--record-events would overwrite s.json, which is the scenario s.json;"),
            (["run", "s.json", "--record-events", "./link.json", "--out", "r"], "--record-events would overwrite ./link.json, which is the scenario s.json;"),
            (["run", "out/report.json", "--out", "out"], "--out out would overwrite out/report.json, which is the scenario out/report.json;"),
            (["explore", "link.json", "--seeds", "1", "--out", "."], "--out . would overwrite ./summary.json, which is the scenario link.json;"),
            (["merge", "out/report.json", "--out", "./out/"], "would overwrite ./out//report.json, which is a report to merge out/report.json;"),
            (["shrink", "s.json", "--out", "link.json"], "--out would overwrite link.json, which is the scenario s.json;"),
        ]
        // A hard link to the scenario where explore writes its summary.
        try FileManager.default.linkItem(at: dir.appendingPathComponent("s.json"), to: dir.appendingPathComponent("summary.json"))
        for (arguments, message) in cases {
            let r = try CLI.run(arguments, in: dir)
            #expect(r.status == 2, "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(arguments): nothing ran")
            #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("s.json"), encoding: .utf8) == scenario)
        #expect(try String(contentsOf: dir.appendingPathComponent("out/report.json"), encoding: .utf8) == scenario)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path))
    }
}
