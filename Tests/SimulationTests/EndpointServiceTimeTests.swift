import Testing
import Scenario
import Reports
@testable import Simulation

/// `backend.endpoints`: an endpoint given its own service time is served in it, the
/// other endpoints keep `backend.serviceTime`; the paths are the world's endpoint table's.
@Suite struct EndpointServiceTimeTests {
    /// Enough workers that nothing waits: each endpoint's busy time over its served
    /// requests is its mean service time.
    static func scenario(endpoints: String?) -> String {
        """
        {"name": "endpoints", "duration": "1d", "seed": 3,
         "fleet": [{"cohort": "i", "count": 40, "platform": "ios", "signedIn": 1, "usage": {"appOpensPerDay": 6},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}},
                   {"cohort": "a", "count": 20, "platform": "android", "signedIn": 1, "usage": {"appOpensPerDay": 6}}],
         "backend": {"workers": 1000, "serviceTime": "50ms"\(endpoints.map { #", "endpoints": \#($0)"# } ?? "")}}
        """
    }

    static func run(_ endpoints: String?) throws -> ReportValue {
        let scenario = try ScenarioDecoder.decode(Array(Self.scenario(endpoints: endpoints).utf8), file: "endpoints.json",
                                                  vocabulary: ReferenceWorld.scenarioVocabulary)
        var world = ReferenceWorld(scenario: scenario)
        world.runToEnd()
        return try world.report().report
    }

    /// Mean service time in seconds of `path`'s served requests (a service still running
    /// at the end counts up to the end, hence the tolerance below).
    static func meanService(_ r: ReportValue, _ path: String) -> Double? {
        guard let busy = r.lookup("backend.queue.byEndpoint.\(path).busyWorkerMicroseconds")?.reportedDouble,
              let served = r.lookup("backend.queue.byEndpoint.\(path).served")?.reportedDouble, served > 0 else { return nil }
        return busy / served / 1e6
    }

    @Test func aSlowEndpointMovesOnlyItsOwnServiceTime() throws {
        let plain = try Self.run(nil)
        let slow = try Self.run(#"{"/api/v1/steps/sync": {"serviceTime": "3s"}}"#)
        let sync = "/api/v1/steps/sync", history = "/v1/test/history"
        #expect(Self.meanService(plain, sync).map { abs($0 - 0.05) < 0.0005 } == true, "\(String(describing: Self.meanService(plain, sync)))")
        #expect(Self.meanService(slow, sync).map { abs($0 - 3) < 0.03 } == true, "\(String(describing: Self.meanService(slow, sync)))")
        for r in [plain, slow] {
            #expect(Self.meanService(r, history).map { abs($0 - 0.05) < 0.0005 } == true, "\(String(describing: Self.meanService(r, history)))")
        }
        // The analysis keeps the cohort's own modelled times (a lognormal, not 50 ms).
        #expect((Self.meanService(slow, "/v1/homework/analyze") ?? 0) > 1)
    }
}
