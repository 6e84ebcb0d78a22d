import Foundation
import Testing

@Suite struct DivergeTests {
    static let scenario = "scenarios/races/ignores-low-battery.json"

    /// The scenario file's own `seed`.
    static func fileSeed() throws -> Int {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent(scenario))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["seed"] as? Int)
    }

    /// A recorded stream with one line altered: diverge names that line's time and
    /// device (exit 1); the stream against itself: no divergence (exit 0).
    @Test func tracesFindOneAlteredLine() throws {
        let dir = try CLI.temporaryDirectory()
        let events = dir.appendingPathComponent("a.txt").path
        let run = try CLI.run(["run", Self.scenario, "--out", dir.appendingPathComponent("out").path, "--quiet", "--record-events", events])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        var lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count > 1000)
        // The 700th event, its hash replaced: the only difference.
        var fields = lines[699].split(separator: " ", maxSplits: 3).map(String.init)
        let (time, device) = (fields[0], fields[1])
        fields[2] = fields[2] == "0000000000000000" ? "0000000000000001" : "0000000000000000"
        lines[699] = fields.joined(separator: " ")
        let altered = try CLI.write(lines.joined(separator: "\n"), to: "b.txt", in: dir)

        let found = try CLI.run(["diverge", "--traces", events, altered])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("First divergence at event 700:"))
        #expect(found.stdout.contains("(\(time) µs)"))
        #expect(found.stdout.contains("  device  \(device)\n"))
        #expect(found.stdout.contains("last event both delivered: t=\(lines[698].split(separator: " ")[0]) µs"))

        let same = try CLI.run(["diverge", "--traces", events, events])
        #expect(same.status == 0)
        #expect(same.stdout.contains("No divergence: \(lines.count - 1) events"))

        // The last line cut off: the shorter stream ends where the other goes on.
        let original = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").map(String.init)
        let cut = try CLI.write(original.dropLast().joined(separator: "\n") + "\n", to: "c.txt", in: dir)
        let ended = try CLI.run(["diverge", "--traces", events, cut])
        #expect(ended.status == 1)
        #expect(ended.stdout.contains("(no more events)"))
    }

    /// The plant: two streams equal but for two events of one instant swapped. The order
    /// within an instant is the tie-break's, so it is no divergence (a note says where);
    /// a later real difference is still found, and an extra event inside an instant is.
    @Test func aPureReorderingIsNoDivergence() throws {
        let dir = try CLI.temporaryDirectory()
        let lines = ["100 1 00000000000000a1 x", "200 1 00000000000000b1 y", "200 2 00000000000000b2 z", "300 3 00000000000000c3 w"]
        let plain = try CLI.write(lines.joined(separator: "\n") + "\n", to: "a.txt", in: dir)
        let swappedLines = [lines[0], lines[2], lines[1], lines[3]]
        let swapped = try CLI.write(swappedLines.joined(separator: "\n") + "\n", to: "b.txt", in: dir)
        let same = try CLI.run(["diverge", "--traces", plain, swapped])
        #expect(same.status == 0, "\(same.stdout)")
        #expect(same.stdout.contains("No divergence: 4 events, the same on both sides."))
        #expect(same.stdout.contains("Note: the same events came in another order at 200 µs since start (200 µs), the first such instant"), "\(same.stdout)")

        let later = try CLI.write((swappedLines.dropLast() + ["300 3 00000000000000c4 w"]).joined(separator: "\n") + "\n", to: "c.txt", in: dir)
        let found = try CLI.run(["diverge", "--traces", plain, later])
        #expect(found.status == 1)
        #expect(found.stdout.contains("First divergence at event 4:\n  time    300 µs since start (300 µs)\n  device  3\n"), "\(found.stdout)")
        #expect(found.stdout.contains("the same events came in another order"))

        let extra = try CLI.write(([swappedLines[0], swappedLines[1], swappedLines[2], "200 3 00000000000000b3 v"] + [lines[3]]).joined(separator: "\n") + "\n",
                                  to: "d.txt", in: dir)
        let added = try CLI.run(["diverge", "--traces", plain, extra])
        #expect(added.status == 1)
        #expect(added.stdout.contains("First divergence at event 4:"), "\(added.stdout)")
        #expect(added.stdout.contains("  \(plain): (no more events at this instant)\n  \(extra): t=200 µs device 3 hash 00000000000000b3 v\n"))
        #expect(added.stdout.contains("last event both delivered: t=200 µs device 1 hash 00000000000000b1 y"))
        #expect(!added.stdout.contains("another order"))
    }

    /// With shuffled ties keyed per event, a variant's first divergence is the one the fifo
    /// copy of the fleet shows (its device and time): no reordering of another device's
    /// events comes first.
    @Test func shuffledTiesDivergeWhereFifoDoes() throws {
        let dir = try CLI.temporaryDirectory()
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("scenarios/races/ignore-quiet-hours.json"), encoding: .utf8)
        var firsts: [String] = []
        for mode in ["fifo", "shuffle"] {
            let file = try CLI.write(text.replacingOccurrences(of: "{", with: "{\"tieBreak\": \"\(mode)\", ", options: [], range: text.startIndex..<text.index(after: text.startIndex)),
                                     to: "\(mode).json", in: dir)
            let r = try CLI.run(["diverge", file, "--against-variants", "none"])
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            let at = try #require(lines.firstIndex { $0.hasPrefix("First divergence at event") })
            firsts.append(lines[at + 1] + "\n" + lines[at + 2])
        }
        #expect(firsts[0] == firsts[1], "\(firsts)")
    }

    /// Two configurations differing only in one variant (the low-battery rule ignored):
    /// the hashes say which device buckets differ and the streams say where first.
    /// The same binary against itself: no divergence, from the reports' hashes alone.
    @Test func configurationsAndBuilds() throws {
        let variants = try CLI.run(["diverge", Self.scenario, "--seed", "1", "--against-variants", "none"])
        #expect(variants.status == 1, "\(variants.stdout)\(variants.stderr)")
        #expect(variants.stdout.contains("device buckets (device id mod 256) differ"))
        #expect(variants.stdout.contains("First divergence at event "))
        #expect(variants.stdout.contains("  time    2026-"))

        let same = try CLI.run(["diverge", Self.scenario, "--seed", "1", "--against", CLI.executable.path])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("No divergence: both runs delivered the same events"))
    }

    /// Bad usage: no other side, two other sides, an --against that is no executable.
    @Test func badUsage() throws {
        let none = try CLI.run(["diverge", Self.scenario, "--seed", "1"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("exactly one of --against"))
        let two = try CLI.run(["diverge", Self.scenario, "--seed", "1", "--against-variants", "none", "--against-scenario", Self.scenario])
        #expect(two.status == 2)
        let missing = try CLI.run(["diverge", Self.scenario, "--seed", "1", "--against", "/nonexistent/fleetsim"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("expected an executable fleetsim build"))
        // Without --seed both sides run the file's seed, as the help says.
        let noSeed = try CLI.run(["diverge", Self.scenario, "--against-variants", "none"])
        let withSeed = try CLI.run(["diverge", Self.scenario, "--seed", "\(try Self.fileSeed())", "--against-variants", "none"])
        #expect(noSeed.status == withSeed.status && noSeed.stdout == withSeed.stdout && noSeed.status != 2, "\(noSeed.stderr)")
    }
}
