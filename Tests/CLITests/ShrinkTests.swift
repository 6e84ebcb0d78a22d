import Foundation
import Testing

/// `fleetsim shrink` end to end, on the fast race scenarios (a few tenths of a second
/// each in a debug build); `docs/shrink.md` measures all thirteen with the release build.
@Suite struct ShrinkTests {
    /// Devices and duration of a written scenario, read from its text.
    static func size(_ path: String) throws -> (devices: Int, duration: String, text: String) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let fleet = try #require(object["fleet"] as? [[String: Any]])
        return (fleet.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) }, (object["duration"] as? String) ?? "", text)
    }

    /// Seconds of a duration the shrinker writes ("578m", "1d", "325m").
    static func seconds(_ duration: String) -> Double {
        let units: [(String, Double)] = [("ms", 0.001), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        for (suffix, scale) in units where duration.hasSuffix(suffix) {
            return (Double(duration.dropLast(suffix.count)) ?? .infinity) * scale
        }
        return .infinity
    }

    /// The replay command printed after "Replay: " (these tests' paths need no quoting,
    /// so it splits into words at spaces).
    static func replayLine(_ stdout: String) -> String? {
        stdout.split(separator: "\n").first { $0.hasPrefix("Replay: ") }.map { String($0.dropFirst("Replay: ".count)) }
    }

    @Test(arguments: ["ignore-410", "insert-not-upsert", "ignore-quiet-hours", "retry-on-4xx"])
    func raceShrinksToTenDevicesAndADayAndItsReplayShowsTheViolation(_ race: String) throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("\(race).json").path
        let r = try CLI.run(["shrink", "scenarios/races/\(race).json", "--seed", "1", "--out", out])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let kind = try #require(r.stdout.components(separatedBy: "shrinking while ").dropFirst().first?.split(separator: " ").first)
        let shrunk = try Self.size(out)
        #expect(shrunk.devices >= 1 && shrunk.devices <= 10)
        #expect(Self.seconds(shrunk.duration) <= 86_400)
        // The printed command, run as printed, shows the violation on that device.
        let line = try #require(Self.replayLine(r.stdout))
        let words = line.split(separator: " ").map(String.init)
        #expect(words[1] == "replay" && words[2] == out)
        let replay = try CLI.run(Array(words.dropFirst()))
        #expect(replay.status == 1, "a story that shows the violation exits 1, as run")
        #expect(replay.stdout.contains("VIOLATION \(kind) "), "\(line)")
        // Its window ends inside the shrunk run (it printed runs past the end).
        let to = try #require(words.firstIndex(of: "--to").map { words[$0 + 1] })
        #expect(Self.seconds(to) <= Self.seconds(shrunk.duration), "\(line): the run is \(shrunk.duration)")
        #expect(!replay.stderr.contains("after the end of the run"), "\(replay.stderr)")
    }

    /// Same inputs, same file, byte for byte; the file has sorted keys, two-space
    /// indentation, the variants and seed it ran with, and the user's own keys. (Seed 4
    /// shrinks to a few devices of its own seed; seeds 1 and 2 move to seed 3.)
    @Test func sameInputsGiveTheSameFile() throws {
        let dir = try CLI.temporaryDirectory()
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        #expect(try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--seed", "4", "--out", a]).status == 0)
        #expect(try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--seed", "4", "--out", b]).status == 0)
        let text = try Self.size(a).text
        #expect(text == (try Self.size(b).text))
        #expect(text.hasPrefix("{\n  \"description\": \"Shrunk by fleetsim shrink from scenarios/races/ignore-410.json, seed 4, keeping pushSentToUnregisteredToken."))
        #expect(text.contains("\n  \"logic\": {\n    \"variants\": [\"push.ignore410\"]\n  },\n"))
        #expect(text.contains("\"reinstallsPerMonth\": 30"))
        #expect(text.contains("\n  \"seed\": 4\n}\n"))
    }

    /// --variants replaces the file's; the shrunk file carries them, so it fails on its
    /// own. The default output lands next to the input, and a path with a space is
    /// quoted in the replay command. (Seed 4, which the shrink keeps.)
    @Test func variantsAreWrittenAndPathsAreQuoted() throws {
        let dir = try CLI.temporaryDirectory().appendingPathComponent("with space")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let input = dir.appendingPathComponent("push.json").path
        let original = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("scenarios/races/ignore-410.json").path, encoding: .utf8)
        try original.replacingOccurrences(of: #"["push.ignore410"]"#, with: "[]").write(toFile: input, atomically: true, encoding: .utf8)
        let r = try CLI.run(["shrink", input, "--seed", "4", "--variants", "push.ignore410"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("push.shrunk.json").path
        #expect(try Self.size(out).text.contains("\"variants\": [\"push.ignore410\"]"))
        #expect(r.stdout.contains("Replay: "))
        #expect(r.stdout.contains(" replay '\(out)' --seed 4 --device "))
        #expect(try CLI.run(["run", out, "--out", dir.appendingPathComponent("report").path, "--quiet"]).status == 1)
    }

    /// A later start moves every time in the file with it: the run is that much
    /// shorter, each remaining fault starts that much earlier (not before 0s), and
    /// `lastTestDaysAgo` grows by the shift, so each user's last test keeps its instant.
    @Test func aLaterStartMovesTheFilesTimes() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("calendar.json").path
        let input = "scenarios/races/local-calendar-days.json"
        let r = try CLI.run(["shrink", input, "--seed", "1", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        func object(_ path: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        }
        let before = try object(CLI.packageRoot.appendingPathComponent(input).path), after = try object(out)
        func unix(_ text: Any?) -> Double? {
            (text as? String).flatMap { ISO8601DateFormatter().date(from: $0) }?.timeIntervalSince1970
        }
        let shift = try #require(unix(after["start"])) - (try #require(unix(before["start"])))
        #expect(shift > 0, "\(r.stdout)")
        #expect(Self.seconds(after["duration"] as? String ?? "") <= Self.seconds(before["duration"] as? String ?? "") - shift)
        let ago = { (o: [String: Any]) in (((o["fleet"] as? [[String: Any]])?[0]["lastTestDaysAgo"] as? [String: Any])?["uniform"] as? [Double]) ?? [] }
        #expect(ago(after).count == 2)
        for (a, b) in zip(ago(after), ago(before)) { #expect(abs(a - (b + shift / 86_400)) < 1e-9) }
        let faultsBefore = (before["faults"] as? [[String: Any]]) ?? [], faultsAfter = (after["faults"] as? [[String: Any]]) ?? []
        for fault in faultsAfter {
            let original = try #require(faultsBefore.first { $0["kind"] as? String == fault["kind"] as? String })
            #expect(Self.seconds(fault["at"] as? String ?? "") == max(0, Self.seconds(original["at"] as? String ?? "") - shift))
        }
    }

    /// Several cohorts: the search keeps one, and a fault narrowed to a dropped cohort
    /// goes with it (the file still decodes: shrink reads it back before reporting).
    @Test func cohortsAreDroppedWithTheirFaults() throws {
        let dir = try CLI.temporaryDirectory()
        let cohort = #""count": COUNT, "platform": "ios", "features": ["refresh", "push"], "usage": {"appOpensPerDay": 0.2}, "settings": {"notificationPermission": {"authorized": 1}}, "push": {"quietHours": {"none": 1}, "sources": {"assignmentDue": {"perDay": 4}}, "reinstallsPerMonth": 30}"#
        let fleet = [("a", 30), ("b", 30), ("c", 40)].map { #"{"cohort": "\#($0.0)", "# + cohort.replacingOccurrences(of: "COUNT", with: "\($0.1)") + "}" }
        let input = try CLI.write(#"{"name": "three", "duration": "12h", "fleet": [\#(fleet.joined(separator: ", "))], "logic": {"variants": ["push.ignore410"]}, "faults": [{"kind": "networkOutage", "at": "6h", "duration": "1h", "cohort": "c"}, {"kind": "authExpiry", "at": "1h", "cohort": "a"}]}"#, to: "three.json", in: dir)
        let r = try CLI.run(["shrink", input, "--seed", "1"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("cohorts    3 -> 1"))
        let after = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("three.shrunk.json"))) as? [String: Any])
        let names = ((after["fleet"] as? [[String: Any]]) ?? []).compactMap { $0["cohort"] as? String }
        #expect(names.count == 1)
        for fault in (after["faults"] as? [[String: Any]]) ?? [] {
            #expect(names.contains(fault["cohort"] as? String ?? ""))
        }
        #expect(try Self.size(dir.appendingPathComponent("three.shrunk.json").path).devices <= 10)
    }

    /// The correct logic does not fail: exit 1, nothing written. A kind the run does not
    /// violate: exit 1. A run budget of 1 (only the input run): the input, rewritten.
    @Test func aRunThatDoesNotFailIsNotShrunk() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("x.json").path
        let pass = try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--variants", "none", "--out", out])
        #expect(pass.status == 1)
        #expect(pass.stdout.contains("violates no invariant: nothing to shrink"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let other = try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--kind", "duplicateStepRows", "--out", out])
        #expect(other.status == 1)
        #expect(other.stdout.contains("violates no duplicateStepRows; it violates pushSentToUnregisteredToken x"))
        let once = try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--max-runs", "1", "--out", out])
        #expect(once.status == 0)
        #expect(once.stdout.contains("stopped by the run budget (1 runs): a larger --max-runs may shrink further; the result is the same on any machine"))
        #expect(!once.stdout.contains("time limit"))
        #expect(once.stdout.contains("devices    100 -> 100"))
        #expect(try Self.size(out).devices == 100)
        // A time limit already over when the search starts: only that stop names the machine.
        let hurried = try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--max-seconds", "0.001", "--out", out])
        #expect(hurried.status == 0)
        #expect(hurried.stdout.contains("stopped by the time limit: a longer search may shrink further, and the time limit makes the result depend on the machine's speed"))
        #expect(!hurried.stdout.contains("run budget"))
    }

    /// `--scale` shrinks from the fleet `run --scale` simulates: the same violations at
    /// the start, and the written file holds the scaled counts and names the scale.
    @Test func scaleShrinksFromTheScaledFleet() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("scaled.json").path
        let r = try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--seed", "1", "--scale", "0.5", "--max-runs", "1", "--out", out])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let run = try CLI.run(["run", "scenarios/races/ignore-410.json", "--seed", "1", "--scale", "0.5", "--out", dir.appendingPathComponent("run").path, "--quiet"])
        #expect(run.status == 1)
        let report = try String(contentsOf: dir.appendingPathComponent("run/report.json"), encoding: .utf8)
        let count = try #require(report.components(separatedBy: "\"pushSentToUnregisteredToken\": ").dropFirst().first?.prefix { $0.isNumber })
        #expect(r.stdout.hasPrefix("scenarios/races/ignore-410.json at --scale 0.5 with seed 1 violates pushSentToUnregisteredToken x\(count);"), "\(r.stdout)")
        let shrunk = try Self.size(out)
        #expect(shrunk.devices == 50)
        #expect(shrunk.text.contains("from scenarios/races/ignore-410.json at --scale 0.5, seed 1"), "\(shrunk.text)")

        let emptied = try CLI.run(["shrink", "scenarios/races/ignore-410.json", "--scale", "0.001", "--out", out])
        #expect(emptied.status == 2)
        #expect(emptied.stderr.contains("--scale 0.001 leaves cohort 'pushed' (100 devices; keeps one from --scale 0.005) with 0 devices"), "\(emptied.stderr)")
    }

    @Test func badUsageExitsTwo() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("x.json").path
        for args in [["shrink"], ["shrink", "scenarios/races/ignore-410.json", "--kind", "nope", "--out", out],
                     ["shrink", "scenarios/races/ignore-410.json", "--max-runs", "0", "--out", out],
                     ["shrink", "scenarios/races/ignore-410.json", "--scale", "0", "--out", out],
                     ["shrink", "scenarios/races/ignore-410.json", "--out", "scenarios/races/ignore-410.json"],
                     ["shrink", dir.appendingPathComponent("missing.json").path]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
        }
        let help = try CLI.run(["shrink", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("EXAMPLE"))
    }
}
