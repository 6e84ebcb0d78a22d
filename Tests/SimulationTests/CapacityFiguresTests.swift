import Testing
import Scenario
import Reports
@testable import Simulation

/// The capacity figures per resource (docs/report.md, "Capacity by resource"): the
/// resource that binds, the minute of the most work beside the minute of the most
/// requests, the fault that made a peak minute, and what each figure reads as.
@Suite struct CapacityFiguresTests {
    static func run(_ scenario: Scenario, shard: ShardPlan = .whole) -> ReportValue {
        var world = World(scenario: scenario, shard: shard)
        world.runToEnd()
        return (try? world.report().report) ?? .null
    }

    static func number(_ r: ReportValue, _ path: String) -> Double { r.lookup(path)?.reportedDouble ?? .nan }

    /// The default over its first 3 days: its busiest minute by requests lies in the
    /// backend outage of day 3 (no worker busy, none of its requests answered), and the
    /// report says the fault made it (and its busiest second, inside it too); the minute of the most work is the analysis
    /// endpoint's, a small share of the requests and most of the busy time.
    @Test func theDefaultsPeaksSayWhatMadeThemAndWhatWorkedMost() throws {
        var scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.01)
        scenario.duration = .days(3)
        let r = Self.run(scenario)
        #expect(r.lookup("backend.load.peak.faults") == .array([.string("backendOutage")]))
        #expect(Self.number(r, "backend.load.peak.headroom") == 1 && Self.number(r, "backend.load.peak.busyWorkers") == 0)
        let md = MarkdownReport.render(r)
        #expect(md.contains("(inside backendOutage: the fault made this minute); none of its"), "\(md)")
        // So does its busiest second, which the outage made too: the second's own count unanswered.
        let second = try #require(r.lookup("backend.load.peakSecond.at")?.doubleValue)
        let outage = try #require(r.lookup("backend.load.faults")?.arrayValue?.first { $0.lookup("kind")?.stringValue == "backendOutage" })
        #expect(second >= outage.lookup("start")?.doubleValue ?? .infinity && second < outage.lookup("end")?.doubleValue ?? 0)
        let row = try #require(md.split(separator: "\n").first { $0.hasPrefix("| busiest second ") })
        let n = try #require(r.lookup("backend.load.peakSecond.requests")?.intValue)
        #expect(row.contains("(inside backendOutage: the fault made this second); none of its \(n) requests answered"), "\(row)")

        let w = "backend.load.peakByWork"
        #expect(r.lookup("\(w).faults") == .array([]))
        let busy = Self.number(r, "\(w).busyWorkerMicroseconds")
        #expect(busy > 0 && busy == (r.lookup("backend.load.apiBusyWorkerMicroseconds")?.arrayValue?.compactMap(\.doubleValue).max() ?? -1))
        let byEndpoint = (r.lookup("\(w).byEndpoint")?.objectValue ?? [:]).mapValues { $0.doubleValue ?? 0 }
        let byCause = (r.lookup("\(w).byCause")?.objectValue ?? [:]).mapValues { $0.doubleValue ?? 0 }
        #expect(byEndpoint.values.reduce(0, +) == busy && byCause.values.reduce(0, +) == busy, "the minute's busy time, split")
        let analysis = "/v1/homework/analyze"
        #expect((byEndpoint[analysis] ?? 0) > 0.5 * busy, "\(byEndpoint)")
        let requests = Self.number(r, "backend.requests.byEndpoint.\(analysis)") / Self.number(r, "backend.requests.total")
        #expect(requests < 0.05, "a small share of the requests: \(requests)")
        #expect(md.contains("busiest minute by work: cause") && md.contains("endpoints \(analysis) "), "\(md)")
        // The API binds: no other resource is as used.
        #expect(r.lookup("backend.binding") == .string("api"))
        #expect(md.contains("| API workers (binds) |"))
        // One world: every figure exact, none a bound or shard-local.
        #expect(md.contains(" exact |") && !md.contains("bound (sharded)") && !md.contains("shard-local"))
    }

    /// Two cohorts, one in Tokyo opening the app 40 times a day and one in New York
    /// opening it once: every peak minute is Tokyo's, and reads in its local time (UTC + 9 h,
    /// no daylight saving), merged as in one run.
    @Test func aPeakReadsInTheLocalTimeOfTheZoneThatMadeIt() throws {
        let json = """
        {"name": "zones", "duration": "6h", "seed": 5, "start": "2026-03-02T00:00:00Z",
         "fleet": [{"cohort": "tokyo", "count": 120, "platform": "ios", "signedIn": 1, "timeZones": {"Asia/Tokyo": 1}, "usage": {"appOpensPerDay": 40}},
                   {"cohort": "ny", "count": 30, "platform": "ios", "signedIn": 1, "timeZones": {"America/New_York": 1}, "usage": {"appOpensPerDay": 1}}]}
        """
        let scenario = try Fixtures.decode(json)
        let plain = Self.run(scenario)
        for peak in ["backend.load.peak", "backend.load.peakByWork"] {
            #expect(plain.lookup("\(peak).zone") == .string("Asia/Tokyo"), "\(peak)")
            let at = Int64(Self.number(plain, "\(peak).at"))
            let start = try #require(plain.lookup("simulated.start")?.stringValue.flatMap(LocalClock.unixSeconds(utc:)))
            let utc = try #require(LocalClock.text(unixSeconds: start + at + 9 * 3_600, zone: "UTC"))
            #expect(plain.lookup("\(peak).localTime") == .string(utc), "\(peak)")
        }
        let md = MarkdownReport.render(plain)
        #expect(md.contains(" in Asia/Tokyo, 2026-03-0"), "\(md)")
        let shards = (0..<2).map { Self.run(scenario, shard: ShardPlan(index: $0, count: 2)) }
        let merged = try ReportMerge.merge(shards.enumerated().map { ("s\($0.offset)", $0.element) }, rules: World.mergeRules)
        #expect(merged.lookup("backend.load.peak.zone") == plain.lookup("backend.load.peak.zone"))
        #expect(merged.lookup("backend.load.peak.localTime") == plain.lookup("backend.load.peak.localTime"))
    }

    /// A broadcast against 2 streams and 2 queue places: the push streams refused sends,
    /// so one of them binds, with no headroom; the instant peak beside it reads as what it
    /// is, exact in one run and a bound merged, and merge finds the same binding resource.
    @Test func aRefusingPushPoolBindsAndMergeAgrees() throws {
        let json = """
        {"name": "push-binds", "duration": "2h", "seed": 3,
         "fleet": [{"cohort": "i", "count": 100, "platform": "ios", "signedIn": 1, "push": {"quietHours": {"none": 1}}},
                   {"cohort": "a", "count": 100, "platform": "android", "signedIn": 1, "push": {"quietHours": {"none": 1}}}],
         "broadcasts": [{"at": "1h", "priority": "high", "category": "announcements", "fraction": 1}],
         "backend": {"push": {"concurrency": 2, "queueLimit": 2}}}
        """
        let scenario = try Fixtures.decode(json)
        let plain = Self.run(scenario)
        let binding = try #require(plain.lookup("backend.binding")?.stringValue)
        #expect(binding == "apns" || binding == "fcm")
        #expect(Self.number(plain, "backend.resources.\(binding).headroom") == 0 && Self.number(plain, "backend.resources.\(binding).refused") > 0)
        #expect(plain.lookup("backend.resources.\(binding).headroom") == plain.lookup("backend.pushes.\(binding).headroom"))
        #expect(plain.lookup("backend.resources.api.headroom") == plain.lookup("backend.load.apiHeadroom"))
        let md = MarkdownReport.render(plain)
        #expect(md.contains("**Binds first:**") && md.contains("instant peak: most busy at once (exact)"), "\(md)")
        // report.html shows the paragraph's opening words in bold, not the markdown's asterisks.
        let html = HTMLReport.render(plain, features: World.reportSections)
        #expect(html.contains("<p><strong>Binds first:</strong> the ") && !html.contains("**"))

        let shards = (0..<2).map { Self.run(scenario, shard: ShardPlan(index: $0, count: 2)) }
        let merged = try ReportMerge.merge(shards.enumerated().map { ("s\($0.offset)", $0.element) }, rules: World.mergeRules)
        #expect(merged.lookup("backend.binding") == .string(binding))
        #expect(merged.lookup("backend.resources.\(binding).refused") == merged.lookup("backend.pushes.\(binding).rejectedByQueue"))
        let mergedMD = MarkdownReport.render(merged, features: World.reportSections)
        #expect(mergedMD.contains("instant peak: most busy at once (bound (sharded))"), "\(mergedMD)")
        // The push section's provider table prints the merged instant peak as a range too.
        let providerRows = mergedMD.split(separator: "\n").filter { $0.hasPrefix("| APNs ") && $0.filter { $0 == "|" }.count == 12 }
        #expect(!providerRows.isEmpty && providerRows.allSatisfy { $0.contains("(sharded: bound)") }, "\(providerRows)")
    }
}
