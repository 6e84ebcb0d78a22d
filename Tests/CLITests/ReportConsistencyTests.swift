import Foundation
import Testing
import Reports
import Scenario
import Simulation
@testable import FleetSimCLI

/// A report that disagrees with itself is refused by `merge` and `compare`
/// (``ReportConsistency``, docs/scale.md "What merge refuses"), naming the file, the JSON
/// path, what was expected and what was found; one that agrees merges.
@Suite struct ReportConsistencyTests {
    /// The two shard reports of ``ReportFuzzTests/shards`` (a race scenario with violations),
    /// as merge reads them.
    static func shards() throws -> [ReportValue] {
        try ReportFuzzTests.shards.get().map(Merge.reportValue)
    }

    static func merge(_ reports: [ReportValue], partial: Bool = false) -> Result<ReportValue, ReportMerge.Refusal> {
        Result { () throws(ReportMerge.Refusal) in
            try ReportMerge.merge(zip(["a/report.json", "b/report.json"], reports).map { ($0, $1) }, rules: World.mergeRules, partial: partial)
        }
    }

    static func refusal(_ reports: [ReportValue], partial: Bool = false) -> String? {
        if case .failure(let refusal) = merge(reports, partial: partial) { return refusal.message }
        return nil
    }

    /// `report` with the value at the dotted path replaced, or removed (nil).
    static func set(_ report: inout ReportValue, _ dotted: String, _ value: ReportValue?) {
        set(&report, dotted.split(separator: ".").map(String.init)[...], value)
    }

    static func set(_ report: inout ReportValue, _ path: ArraySlice<String>, _ value: ReportValue?) {
        guard case .object(var members) = report, let head = path.first else { return }
        if path.count == 1 {
            members[head] = value
        } else {
            var child = members[head] ?? .object([:])
            set(&child, path.dropFirst(), value)
            members[head] = child
        }
        report = .object(members)
    }

    @Test func theShardsOfARunAndTheirMergesAgreeWithThemselves() throws {
        let shards = try Self.shards()
        for (k, shard) in shards.enumerated() {
            #expect(throws: Never.self) { try ReportConsistency.check(shard, name: "s\(k)", schema: World.reportSchema) }
        }
        let merged = try Self.merge(shards).get()
        #expect(throws: Never.self) { try ReportConsistency.check(merged, name: "merged", schema: World.reportSchema) }
        let part = try Self.merge([shards[0]], partial: true).get()
        #expect(throws: Never.self) { try ReportConsistency.check(part, name: "part", schema: World.reportSchema) }
        // The golden report of the default scenario (its whole week at a minute a bucket).
        let golden = Merge.reportValue(try Compare.readJSON(CLI.packageRoot.appendingPathComponent("reports/baselines/default.json").path, "a report.json"))
        #expect(throws: Never.self) { try ReportConsistency.check(golden, name: "golden", schema: World.reportSchema) }
    }

    /// The run has violations; with `invariants.violations` set to 0 in both shards (and
    /// `byKind` left listing them) it merged as a pass.
    @Test func violationsMustBeTheSumOfTheirKinds() throws {
        var shards = try Self.shards()
        let listed = shards.map { $0.lookup("invariants.violations")?.intValue ?? 0 }
        #expect(listed.reduce(0, +) > 0)
        for k in shards.indices { Self.set(&shards[k], "invariants.violations", .int(0)) }
        let message = try #require(Self.refusal(shards))
        let first = listed[0] > 0 ? 0 : 1
        #expect(message == "\(["a", "b"][first])/report.json: $.invariants.violations: expected \(listed[first]), the sum of invariants.byKind.*, found 0")
    }

    /// A section deleted counted as zero.
    @Test(arguments: ["invariants", "backend.requests", "invariants.byKind", "push.outcomes", "scheduling.launchesByPlatform"])
    func aMissingSectionIsRefused(section: String) throws {
        var shards = try Self.shards()
        Self.set(&shards[1], section, nil)
        let message = try #require(Self.refusal(shards))
        #expect(message.hasPrefix("b/report.json: $.\(section)"), "\(message)")
        #expect(message.contains("found missing") || message.contains("found 0") || message.contains("the sum of"), "\(message)")
    }

    /// Totals and their parts, counts against their bounds, the devices against the
    /// platforms' devices, unknown keys: each refusal names the path, the expected and the found.
    @Test(arguments: [
        ("backend.requests.total", "+1", "$.backend.requests.total: expected"),
        ("push.created.total", "+1", "$.push.created.total: expected"),
        ("scheduling.launches", "+1", "$.scheduling.launches: expected"),
        ("simulated.devices", "x1000", "$.simulated.devices: expected"),
        ("continuation.started", "+1", "$.continuation.started: expected"),
        ("backend.queue.overall.served", "+1", "$.backend.queue.overall.served: expected"),
    ])
    func totalsMustEqualTheirParts(path: String, edit: String, expected: String) throws {
        var shards = try Self.shards()
        let n = try #require(shards[0].lookup(path)?.intValue)
        Self.set(&shards[0], path, .int(edit == "x1000" ? n * 1000 : n + 1))
        let message = try #require(Self.refusal(shards))
        #expect(message.hasPrefix("a/report.json: \(expected)") && message.hasSuffix("found \(edit == "x1000" ? n * 1000 : n + 1)"), "\(message)")
    }

    @Test func aSeriesBucketMustEqualItsParts() throws {
        var shards = try Self.shards()
        var series = try #require(shards[0].lookup("backend.load.requests.total")?.arrayValue)
        series[7] = .int((series[7].intValue ?? 0) + 5)
        Self.set(&shards[0], "backend.load.requests.total", .array(series))
        let message = try #require(Self.refusal(shards))
        #expect(message.hasPrefix("a/report.json: $.backend.load.requests.total[7]: expected") && message.contains("in bucket 7"), "\(message)")
        // A series one bucket short.
        var short = try Self.shards()
        var apns = try #require(short[1].lookup("backend.load.apiRejected")?.arrayValue)
        apns.removeLast()
        Self.set(&short[1], "backend.load.apiRejected", .array(apns))
        #expect(Self.refusal(short)?.hasPrefix("b/report.json: $.backend.load.apiRejected: expected a series of \(apns.count + 1) entries") == true)
    }

    @Test func countsWithinTheirPhysicalBounds() throws {
        var shards = try Self.shards()
        let workers = try #require(shards[0].lookup("backend.capacity.workers")?.intValue)
        var peaks = try #require(shards[0].lookup("backend.load.apiBusyWorkersPeak")?.arrayValue)
        peaks[3] = .int(workers + 1)
        Self.set(&shards[0], "backend.load.apiBusyWorkersPeak", .array(peaks))
        #expect(Self.refusal(shards) == "a/report.json: $.backend.load.apiBusyWorkersPeak[3]: expected at most backend.capacity.workers (\(workers)), found \(workers + 1)")
        var busy = try Self.shards()
        var time = try #require(busy[1].lookup("backend.load.apiBusyWorkerMicroseconds")?.arrayValue)
        let width = try #require(busy[1].lookup("backend.load.bucketSeconds")?.intValue)
        time[0] = .int(workers * width * 1_000_000 + 1)
        Self.set(&busy[1], "backend.load.apiBusyWorkerMicroseconds", .array(time))
        #expect(Self.refusal(busy)?.hasPrefix("b/report.json: $.backend.load.apiBusyWorkerMicroseconds[0]: expected at most backend.capacity.workers x \(width) s") == true)
    }

    @Test func aKeyThisBuildNeverWritesIsRefused() throws {
        var shards = try Self.shards()
        Self.set(&shards[1], "backend.requests.byEndpointt", .int(3))
        #expect(Self.refusal(shards) == "b/report.json: $.backend.requests.byEndpointt: expected no such key: this build writes none (keys here: total, byEndpoint), found \"byEndpointt\"")
        var extra = try Self.shards()
        Self.set(&extra[0], "users.appOpensTwice", .int(3))
        #expect(Self.refusal(extra)?.hasPrefix("a/report.json: $.users.appOpensTwice: expected no such key") == true)
    }

    /// A 2 MB invariant-kind name gave a 130 MB report.md; names are the kinds this build knows.
    @Test func invariantKindNamesAreTheKindsThisBuildKnows() throws {
        var shards = try Self.shards()
        let huge = String(repeating: "k", count: 2_000_000)
        Self.set(&shards[0], ["invariants", "byKind", huge][...], .int(0))
        let message = try #require(Self.refusal(shards))
        #expect(message.utf8.count < 400 && message.contains("expected one of the \(ViolationKind.allCases.count) names this build writes at invariants.byKind")
                && message.contains("(2000000 bytes)"), "\(message.prefix(400))")
        // A sample's kind too.
        var sampled = try Self.shards()
        let k = sampled[0].lookup("invariants.samples")?.arrayValue?.isEmpty == false ? 0 : 1
        var samples = try #require(sampled[k].lookup("invariants.samples")?.arrayValue)
        try #require(!samples.isEmpty)
        var sample = try #require(samples[0].objectValue)
        sample["kind"] = .string(huge)
        samples[0] = .object(sample)
        Self.set(&sampled[k], "invariants.samples", .array(samples))
        let sampleMessage = try #require(Self.refusal(sampled))
        #expect(sampleMessage.utf8.count < 400 && sampleMessage.contains("$.invariants.samples[0].kind: expected one of the"), "\(sampleMessage.prefix(400))")
    }

    /// `compare` reads a report as merge does: the same refusal, exit 2.
    @Test func compareRefusesAnInconsistentReport() throws {
        var report = try Self.shards()[0]
        Self.set(&report, "invariants.violations", .int(0))
        let dir = try CLI.temporaryDirectory()
        let path = try CLI.write(JSONWriter.encode(report), to: "report.json", in: dir)
        let good = try CLI.write(JSONWriter.encode(try Self.shards()[0]), to: "good.json", in: dir)
        let r = try CLI.run(["compare", good, path])
        #expect(r.status == 2 && r.stderr.contains("\(path): $.invariants.violations: expected"), "\(r.stderr)")
    }

    /// A shard re-serialised by another tool (`21600.000000` as `21600.0`) is the same
    /// configuration; a value that truly differs is named with both values.
    @Test func numbersAreComparedByValue() throws {
        var shards = try Self.shards()
        let fault: ReportValue = .array([.object(["kind": .string("backendOutage"), "start": .seconds(7_200_000_000), "end": .seconds(10_800_000_000)])])
        for k in shards.indices { Self.set(&shards[k], "backend.load.faults", fault) }
        let text = JSONWriter.encode(shards[1])
        #expect(text.contains("\"start\": 7200.000000"))
        let reserialised = Merge.reportValue(try JSONParser.parse(Array(text.replacingOccurrences(of: "\"start\": 7200.000000", with: "\"start\": 7200.0")
            .replacingOccurrences(of: "\"end\": 10800.000000", with: "\"end\": 10800").utf8)))
        let merged = try Self.merge([shards[0], reserialised]).get()
        #expect(merged.lookup("backend.load.faults") == fault)
        let moved = Merge.reportValue(try JSONParser.parse(Array(text.replacingOccurrences(of: "\"start\": 7200.000000", with: "\"start\": 7300.0").utf8)))
        #expect(Self.refusal([shards[0], moved])
                == "a/report.json and b/report.json are not shards of one run: backend.load.faults[0].start differs (7200.000000 vs 7300.0)")
    }
}
