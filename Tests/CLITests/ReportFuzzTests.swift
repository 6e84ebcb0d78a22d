import Foundation
import Testing
import Reports
import Scenario
import SimKernel
import Simulation
@testable import FleetSimCLI

/// Mutants of two small real shard reports (seeded, via `RandomStream`) through what
/// `merge` and `compare` do with them: each is merged, rendered and compared, or refused
/// with a message that names its file; none traps, and none turns the run's failing
/// merge (it has violations) into a pass (exit 0). An edit replaces a value with a
/// hostile one, deletes it, nudges a count (+1, -1, 0, x1000), adds a key with a huge
/// name, nests lists deeply, or cuts the file short. `FLEETSIM_REPORT_FUZZ_CASES` sets
/// the number of cases (200 by default; 10,000 for the figure in docs/scale.md) and
/// `FLEETSIM_REPORT_FUZZ_SEED` the seed (33), so a long run can be split.
@Suite struct ReportFuzzTests {
    static let names = ["a/report.json", "b/report.json"]

    /// The reports of shards 0/2 and 1/2 of a 16-device, 6-hour run of a race scenario.
    static let shards: Result<[JSONValue], Error> = Result {
        var s = try ScenarioOptions.load(CLI.packageRoot.appendingPathComponent("scenarios/races/unguarded-completion.json").path)
        s = s.scaled(by: 0.05)
        s.duration = .hours(6)
        return try (0..<2).map { k in
            let world = World(scenario: s, shard: ShardPlan(index: k, count: 2))
            var w = world
            w.runToEnd()
            return try JSONParser.parse(Array(JSONWriter.encode(try w.report().report).utf8))
        }
    }

    /// Values a hostile or careless editor puts in a report.
    static let hostile: [JSONValue] = [
        "9223372036854775808", "18446744073709551616", "9223372036854775807", "-9223372036854775808", "-1", "1.5", "1e40",
        "1e308", "-1e308", "0", "2147483648", "9007199254740993", "0.000001", "43200", "3", "100000000000",
    ].map { .number(Double($0)!, literal: $0) } + [
        .string("x"), .string(""), .string(String(repeating: "é", count: 5_000)), .array([]), .object([]), .null, .bool(true),
        .array([.number(1e40, literal: "1e40")]), .array(Array(repeating: .number(9.2e18, literal: "9200000000000000000"), count: 3)),
        .string("ffffffffffffffff"),
    ]

    /// Keys whose damage mattered before (sizes, plan, identity), picked more often.
    static let hot: [[String]] = [
        ["simulated", "shard", "count"], ["simulated", "shard", "index"], ["simulated", "duration"], ["simulated", "devices"],
        ["backend", "load", "bucketSeconds"], ["backend", "load", "arrivalsBySecond"], ["invariants", "violations"],
        ["simulated", "events"], ["seed"], ["events", "hash", "delivered"], ["events", "hash", "fleetDelivered"],
        ["backend", "requests", "total"], ["simulated", "shard"], ["simulated", "shard", "fingerprint"],
        ["simulated", "shard", "identity", "scale"],
    ]

    /// Every path of a document (object keys and array indices as strings).
    static func paths(_ v: JSONValue, _ prefix: [String] = []) -> [[String]] {
        switch v {
        case .object(let members): return [prefix] + members.flatMap { paths($0.value, prefix + [$0.key]) }
        case .array(let items): return [prefix] + items.indices.flatMap { paths(items[$0], prefix + [String($0)]) }
        default: return [prefix]
        }
    }

    /// `v` with the node at `path` replaced (nil: removed).
    static func replacing(_ v: JSONValue, _ path: ArraySlice<String>, with new: JSONValue?) -> JSONValue? {
        guard let head = path.first else { return new }
        switch v {
        case .object(var members):
            guard let i = members.firstIndex(where: { $0.key == head }) else { return v }
            if let inner = replacing(members[i].value, path.dropFirst(), with: new) { members[i].value = inner } else { members.remove(at: i) }
            return .object(members)
        case .array(var items):
            guard let i = Int(head), items.indices.contains(i) else { return v }
            if let inner = replacing(items[i], path.dropFirst(), with: new) { items[i] = inner } else { items.remove(at: i) }
            return .array(items)
        default: return v
        }
    }

    /// One to three edits of `v`, whose paths are `pathsOfV` (listed once per shard). An
    /// edited document's paths are listed only when a draw needs them: listing them,
    /// every array element included, was a fifth of the test's time. The draws are the
    /// same as when they were listed for every edit.
    static func mutate(_ v: JSONValue, paths pathsOfV: [[String]], _ rng: inout RandomStream) -> JSONValue {
        var out = v
        var pathsOfOut: [[String]]? = pathsOfV
        for _ in 0...rng.int(in: 0...2) {
            let path: [String]
            if rng.int(in: 0...9) < 3 {
                path = hot[Int(rng.int(in: 0...Int64(hot.count - 1)))]
            } else {
                let all = pathsOfOut ?? paths(out)
                path = all[Int(rng.int(in: 0...Int64(all.count - 1)))]
            }
            let new: JSONValue?
            switch rng.int(in: 0...19) {
            case 0, 1: new = nil
            case 2...7:
                // A count nudged: what a careless hand edit or a wrong tool does.
                guard case .number(let x, _)? = value(out, path[...]), x.rounded() == x, x.magnitude < 1e15 else { continue }
                let n = Int64(x), edits = [n + 1, n - 1, 0, n * 1000]
                let m = edits[Int(rng.int(in: 0...3))]
                new = .number(Double(m), literal: String(m))
            case 8:
                new = .object([(key: String(repeating: "k", count: Int(rng.int(in: 65...2_000_000))), value: .number(0, literal: "0"))])
            case 9:
                var nested: JSONValue = .array([])
                for _ in 0..<Int(rng.int(in: 10...400)) { nested = .array([nested]) }
                new = nested
            default: new = hostile[Int(rng.int(in: 0...Int64(hostile.count - 1)))]
            }
            out = replacing(out, path[...], with: new) ?? out
            pathsOfOut = nil
        }
        return out
    }

    /// The node at `path`, if any.
    static func value(_ v: JSONValue, _ path: ArraySlice<String>) -> JSONValue? {
        guard let head = path.first else { return v }
        switch v {
        case .object(let members): return members.first { $0.key == head }.flatMap { value($0.value, path.dropFirst()) }
        case .array(let items): return Int(head).flatMap { items.indices.contains($0) ? value(items[$0], path.dropFirst()) : nil }
        default: return nil
        }
    }

    /// What a command did with its inputs: its exit status (0 or 1), or its refusal.
    enum Outcome: Equatable {
        case status(Int32)
        case refused(String)
    }

    /// What `merge` does with the inputs short of writing files.
    static func merge(_ inputs: [(name: String, report: ReportValue)], partial: Bool) -> Outcome {
        do {
            let merged = try ReportMerge.merge(inputs, rules: World.mergeRules, partial: partial)
            _ = JSONWriter.encode(merged)
            _ = MarkdownReport.render(merged)
            _ = HTMLReport.render(merged)
            _ = JUnitReport.render(merged)
            // What merge writes agrees with itself, as every input had to.
            do { try ReportConsistency.check(merged, name: "merged", schema: World.reportSchema) } catch {
                Issue.record("a merge wrote an inconsistent report: \(error.message)")
            }
            return .status(Merge.exitStatus(merged, strict: false))
        } catch {
            return .refused(error.message)
        }
    }

    /// What `compare` does with a baseline and a current report, short of printing.
    static func compare(_ base: JSONValue, _ current: JSONValue, name: String) -> String? {
        do { _ = try ReportInput.checked(Merge.reportValue(current), name: name, rules: World.mergeRules) } catch { return error.message }
        _ = Compare.identityDifferences(base, current)
        let result = ReportComparison(baseline: ReportMetrics.leaves(of: base), current: ReportMetrics.leaves(of: current), tolerance: 0.05)
        for c in result.regressions + result.improvements + result.changes {
            _ = MetricText.format(c.baseline, path: c.metric) + MetricText.format(c.current, path: c.metric)
        }
        return nil
    }

    @Test func mutatedReportsAreMergedOrRefusedWithTheirFileNeverATrap() throws {
        let shards = try Self.shards.get()
        // Made once: the shards as merge reads them, and their paths.
        let unmutated = zip(Self.names, shards).map { ($0, Merge.reportValue($1)) }
        let shardPaths = shards.map { Self.paths($0) }
        // The unmutated shards merge, and the run fails (it has violations), as does
        // each shard that has some as a part: what a mutant must never turn into a pass.
        let honest = (whole: Self.merge(unmutated, partial: false), part: Self.merge(unmutated, partial: true),
                      alone: unmutated.map { Self.merge([$0], partial: true) })
        #expect(honest.whole == .status(1))
        let cases = ProcessInfo.processInfo.environment["FLEETSIM_REPORT_FUZZ_CASES"].flatMap(Int.init) ?? 200
        let seed = ProcessInfo.processInfo.environment["FLEETSIM_REPORT_FUZZ_SEED"].flatMap(UInt64.init) ?? 33
        var rng = RandomStream(splitMixSeed: seed)
        var refused = 0, unreadable = 0, accepted = 0, passedAFailingRun = 0
        for _ in 0..<cases {
            let k = Int(rng.int(in: 0...1))
            let mutant = Self.mutate(shards[k], paths: shardPaths[k], &rng)
            // Through the writer and the parser, as a file would be read; now and then cut short.
            var text = Array(mutant.text(sortingKeys: false).utf8)
            if rng.int(in: 0...19) == 0 { text = Array(text.prefix(Int(rng.int(in: 0...Int64(text.count - 1))))) }
            guard let parsed = try? JSONParser.parse(text) else { unreadable += 1; continue }
            var inputs = unmutated
            inputs[k] = (Self.names[k], Merge.reportValue(parsed))
            // One of what a user does with it: merge it with the other shard (or without,
            // as a part), or compare it with the unmutated shard.
            let outcome: Outcome, expected: Outcome
            switch rng.int(in: 0...3) {
            case 0: (outcome, expected) = (Self.merge(inputs, partial: false), honest.whole)
            case 1: (outcome, expected) = (Self.merge(inputs, partial: true), honest.part)
            case 2: (outcome, expected) = (Self.merge([inputs[k]], partial: true), honest.alone[k])
            default:
                outcome = Self.compare(shards[k], parsed, name: Self.names[k]).map { .refused($0) } ?? .status(0)
                expected = .status(0)
            }
            switch outcome {
            case .status(let status):
                accepted += 1
                if expected == .status(1), status == 0 { passedAFailingRun += 1 }
            case .refused(let message):
                refused += 1
                #expect(Self.names.contains { message.contains($0) } || message.hasPrefix("the merged report"), "\(message)")
                #expect(message.utf8.count < 2_000, "\(message.prefix(300))")
                if ProcessInfo.processInfo.environment["FLEETSIM_REPORT_FUZZ_LOG"] != nil { print("REFUSED \(message)") }
            }
        }
        print("report fuzz: \(cases) cases (seed \(seed)): \(unreadable) not JSON, \(refused) refused, \(accepted) merged or compared, "
              + "\(passedAFailingRun) failing runs merged as a pass")
        #expect(passedAFailingRun == 0)
        #expect(refused > cases / 2)
    }
}
