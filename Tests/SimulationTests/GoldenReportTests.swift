import Foundation
import Testing
import Reports
@testable import Simulation

/// The committed `reports/baselines/default.json` is what the default scenario at
/// `--scale 0.1` must produce, byte for byte, on any machine. A change meant to move
/// the numbers regenerates it with `make baseline` (and says why in its commit).
@Suite struct GoldenReportTests {
    @Test func defaultScenarioMatchesTheCommittedBaselineByteForByte() throws {
        let scenario = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.1)
        var world = World(scenario: scenario)
        world.runToEnd()
        let produced = JSONWriter.encode(try world.report().report)
        let baseline = try String(contentsOfFile: Fixtures.path("reports/baselines/default.json"), encoding: .utf8)
        #expect(produced == baseline, "run `make baseline` if this change is meant to move the numbers")
    }

    /// The default scenario's backend is sized for its fleet at `--scale 100` (1,000,000
    /// phones, run as shards): the baseline's busy-worker time (1,000 phones) times 1,000
    /// over the workers' time is the mean utilisation at that size, about a third (a
    /// sharded run measured 37.8 %). A change of the fleet or of service times that would
    /// saturate the backend there (or leave it idle) fails here, and default.json's
    /// `backend.workers` must follow.
    @Test func defaultBackendIsSizedForAMillionPhones() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("reports/baselines/default.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let backend = try #require(json["backend"] as? [String: Any])
        let overall = try #require((backend["queue"] as? [String: Any])?["overall"] as? [String: Any])
        let busy = try #require((overall["busyWorkerMicroseconds"] as? NSNumber)?.doubleValue)
        let workers = try #require((backend["capacity"] as? [String: Any])?["workers"] as? Int)
        let simulated = try #require(json["simulated"] as? [String: Any])
        let devices = try #require(simulated["devices"] as? Int)
        let seconds = try #require(simulated["duration"] as? Double)
        let atAMillion = busy / 1e6 * (1_000_000 / Double(devices)) / (Double(workers) * seconds)
        #expect(atAMillion > 0.25 && atAMillion < 0.6, "mean utilisation at 1,000,000 phones: \(atAMillion)")
    }
}
