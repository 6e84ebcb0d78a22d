import Testing
import Scenario
import Reports
@testable import Simulation

/// A sharded run's merged utilisation and headroom against the plain run's: busy time
/// adds up exactly across shards, so an unsaturated backend's merged headroom is the
/// plain run's; a backend that answered 503 in a shard is reported saturated, with no
/// headroom in the minutes it refused requests.
@Suite struct MergedHeadroomTests {
    /// 800 phones for 4 h, opening the app often, against 16 workers with slow service:
    /// the busiest minute uses about a quarter of them, and requests seldom wait (4 per shard).
    static func scenario(workers: Int, queueLimit: Int) -> String {
        """
        {"name": "headroom", "duration": "4h", "seed": 7,
         "fleet": [{"cohort": "i", "count": 600, "platform": "ios", "signedIn": 1, "usage": {"appOpensPerDay": 40},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}},
                   {"cohort": "a", "count": 200, "platform": "android", "signedIn": 1, "usage": {"appOpensPerDay": 40}}],
         "backend": {"workers": \(workers), "queueLimit": \(queueLimit), "serviceTime": {"lognormal": {"median": "1s", "p99": "4s"}}}}
        """
    }

    static func run(_ json: String, shard: ShardPlan = .whole) throws -> ReportValue {
        var world = World(scenario: try Fixtures.decode(json), shard: shard)
        world.runToEnd()
        return try world.report().report
    }

    static func merged(_ json: String, shards n: Int) throws -> ReportValue {
        let parts = try (0..<n).map { k in ("s\(k)", try run(json, shard: ShardPlan(index: k, count: n))) }
        return try ReportMerge.merge(parts, rules: World.mergeRules)
    }

    static func number(_ r: ReportValue, _ path: String) -> Double { r.lookup(path)?.reportedDouble ?? .nan }

    @Test func fourShardsMergedHaveThePlainRunsHeadroomWhenUnsaturated() throws {
        let json = Self.scenario(workers: 16, queueLimit: 400)
        let plain = try Self.run(json), merged = try Self.merged(json, shards: 4)
        #expect(plain.lookup("backend.saturated") == .bool(false) && merged.lookup("backend.saturated") == .bool(false))
        let p = Self.number(plain, "backend.load.apiHeadroom"), m = Self.number(merged, "backend.load.apiHeadroom")
        #expect(p > 0.5 && p < 0.9, "a headroom worth checking: \(p)")
        #expect(abs(m - p) <= 0.05 && m <= p + 0.03, "merged \(m) vs plain \(p)")
        #expect(abs(Self.number(merged, "backend.load.apiUtilisation") - Self.number(plain, "backend.load.apiUtilisation")) <= 0.01)
        // The instant peak is a range in the merged report, labelled: the largest shard's
        // peak (at most a shard's 4 workers) to the sum of the shards' peaks.
        #expect(merged.lookup("backend.load.peaksAre")?.stringValue == "sharded: bound")
        #expect(plain.lookup("backend.load.peaksAre")?.stringValue == "exact")
        let low = merged.lookup("backend.load.apiBusyWorkersPeak")?.arrayValue?.compactMap(\.intValue) ?? []
        let high = merged.lookup("backend.load.apiBusyWorkersPeakUpperBound")?.arrayValue?.compactMap(\.intValue) ?? []
        #expect(low.count == high.count && zip(low, high).allSatisfy { $0 <= $1 && $0 <= 4 })
        #expect(high.max() ?? 0 > 4, "the shards' peaks add up past one shard's workers")
        // The report says it in words.
        let md = MarkdownReport.render(merged)
        #expect(md.contains("(sharded: bound)") && md.contains("The backend never saturated"))
        // Each figure reads as what it is: the shards' queues are their own, not the backend's.
        for row in ["peak queue depth", "queueing p99 / max", "503 (queue full)"] {
            #expect(md.split(separator: "\n").contains { $0.hasPrefix("| \(row) ") && $0.contains("shard-local (each shard against its part of the capacity)") }, "\(row)")
        }
        #expect(md.split(separator: "\n").contains { $0.hasPrefix("| most busy workers at once ") && $0.hasSuffix("bound (sharded) |") })
    }

    @Test func aSaturatedShardedRunSaysSo() throws {
        // 1 worker and a queue of 1 per shard: requests are answered 503.
        let merged = try Self.merged(Self.scenario(workers: 4, queueLimit: 4), shards: 4)
        #expect((merged.lookup("backend.rejected")?.intValue ?? 0) > 0)
        #expect(merged.lookup("backend.saturated") == .bool(true))
        // No headroom in a minute that refused requests: nor in the run.
        #expect(Self.number(merged, "backend.load.apiHeadroom") == 0)
        let rejected = merged.lookup("backend.load.apiRejected")?.arrayValue?.compactMap(\.intValue) ?? []
        let headroom = merged.lookup("backend.load.apiHeadroomOverTime")?.arrayValue?.compactMap(\.reportedDouble) ?? []
        #expect(rejected.count == headroom.count && zip(rejected, headroom).allSatisfy { $0 == 0 || $1 == 0 })
        let md = MarkdownReport.render(merged)
        #expect(md.contains("**Saturated:** the API saturated:"), "\(md.prefix(2_000))")
    }

    /// A broadcast to 200 push users against 2 streams and 2 queue places (1 each a shard):
    /// every shard's providers refuse sends, and so does the merged report, with the sum
    /// of the shards' refusals.
    @Test func mergedPushSaturationIsTheShardsAny() throws {
        let json = """
        {"name": "push-saturation", "duration": "2h", "seed": 3,
         "fleet": [{"cohort": "i", "count": 100, "platform": "ios", "signedIn": 1, "push": {"quietHours": {"none": 1}}},
                   {"cohort": "a", "count": 100, "platform": "android", "signedIn": 1, "push": {"quietHours": {"none": 1}}}],
         "broadcasts": [{"at": "1h", "priority": "high", "category": "announcements", "fraction": 1}],
         "backend": {"push": {"concurrency": 2, "queueLimit": 2}}}
        """
        let shards = try (0..<2).map { k in try Self.run(json, shard: ShardPlan(index: k, count: 2)) }
        let merged = try ReportMerge.merge(shards.enumerated().map { ("s\($0.offset)", $0.element) }, rules: World.mergeRules)
        for provider in ["apns", "fcm"] {
            let refused = shards.map { $0.lookup("backend.pushes.\(provider).rejectedByQueue")?.intValue ?? 0 }
            #expect(refused.allSatisfy { $0 > 0 }, "\(provider): every shard refused sends \(refused)")
            #expect(shards.allSatisfy { $0.lookup("backend.pushes.\(provider).saturated") == .bool(true) })
            #expect(merged.lookup("backend.pushes.\(provider).saturated") == .bool(true), "\(provider)")
            #expect(merged.lookup("backend.pushes.\(provider).rejectedByQueue")?.intValue == refused.reduce(0, +))
        }
    }
}
