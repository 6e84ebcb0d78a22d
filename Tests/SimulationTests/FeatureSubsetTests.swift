import Testing
import SimKernel
import Scenario
import Reports
@testable import Simulation

/// A feature left out of a cohort's `features` sends nothing and costs nothing.
@Suite struct FeatureSubsetTests {
    static func report(features: String, platform: String) throws -> ReportValue {
        var world = World(scenario: try Fixtures.decode("""
        {"name": "subset", "duration": "2d", "seed": 4,
         "fleet": [{"cohort": "c", "count": 40, "platform": "\(platform)", "features": [\(features)],
                    "usage": {"appOpensPerDay": 3}, "signedIn": 1, "settings": {"backgroundAppRefresh": 1}}]}
        """))
        world.runToEnd()
        return try world.report().report
    }

    /// Which features a cohort runs is a set of bits (``CohortModels/runs(_:)``): each
    /// feature has a bit of its own, so no two answer for each other.
    @Test func eachFeatureHasItsOwnBit() {
        let bits = FeatureList.features.map(\.bit)
        #expect(bits.allSatisfy { $0.nonzeroBitCount == 1 })
        #expect(bits.reduce(0, |).nonzeroBitCount == FeatureList.features.count)
    }

    static func requests(_ r: ReportValue, _ endpoint: String) -> Int64 {
        r.lookup("backend.requests.byEndpoint")?.objectValue?[endpoint]?.intValue ?? 0
    }

    /// Push alone: no refresh launches, no `/v1/test/*` requests, no step uploads.
    @Test(arguments: ["ios", "android"]) func pushAloneRunsNoRefresh(platform: String) throws {
        let r = try Self.report(features: "\"push\"", platform: platform)
        #expect(Self.requests(r, "/v1/test/history") == 0)
        #expect(Self.requests(r, "/v1/test/active") == 0)
        #expect(Self.requests(r, "/api/v1/steps/sync") == 0)
        #expect(r.lookup("latency.refreshTaskDuration.count")?.intValue == 0)
    }

    /// Step sync alone still syncs (on opens, HealthKit deliveries or WorkManager), with
    /// no refresh request.
    @Test(arguments: ["ios", "android"]) func stepSyncAloneSyncsWithoutRefresh(platform: String) throws {
        let r = try Self.report(features: "\"stepSync\"", platform: platform)
        #expect(Self.requests(r, "/v1/test/history") == 0)
        #expect(Self.requests(r, "/api/v1/steps/sync") > 0)
    }

    /// The refresh is there when asked for (the test above can fail).
    @Test func refreshRunsWhenListed() throws {
        let r = try Self.report(features: "\"refresh\"", platform: "ios")
        #expect(Self.requests(r, "/v1/test/history") > 0)
    }
}
