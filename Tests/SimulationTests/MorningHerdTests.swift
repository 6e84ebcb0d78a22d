import Testing
import SimKernel
import Scenario
import Reports
@testable import Simulation

/// No second of the backend's load is a synthetic herd: real phones do not wake in the
/// same second, so outside faults and broadcasts no second's arrivals exceed
/// ``herdLimit`` times the p99 of the run's seconds (docs/model.md, "A user's day").
@Suite struct MorningHerdTests {
    /// The documented bound: a second may hold at most 25 × the p99 of seconds.
    static let herdLimit = 25.0

    static func busiestSecondOverP99(_ s: Scenario) throws -> (peak: Double, p99: Double) {
        var world = World(scenario: s)
        world.runToEnd()
        let r = try world.report().report
        let peak = r.lookup("backend.load.peakSecond.requests")?.doubleValue ?? -1
        let p99 = r.lookup("backend.requestsPerSecond.p99")?.doubleValue ?? -1
        return (peak, p99)
    }

    /// The default fleet without its faults, three days at a tenth of its size: every
    /// zone's mornings (wake-ups, chargers, HealthKit deliveries) stay within the bound.
    /// Before each user had their own day, every iPhone of a zone called the step sync
    /// at 07:15:00 local (106 requests in one second against a p99 of 2).
    @Test func theDefaultFleetsMorningsAreNoHerd() throws {
        var s = try Fixtures.scenario("scenarios/default.json").scaled(by: 0.1)
        s.faults = []
        s.duration = .days(3)
        let (peak, p99) = try Self.busiestSecondOverP99(s)
        #expect(p99 >= 1)
        #expect(peak <= Self.herdLimit * p99, "busiest second \(peak) req/s against a p99 of \(p99)")
    }

    /// `scenarios/capacity.json` at a hundredth (2,000 phones): four US zones of iPhones and
    /// Android phones with a high-priority broadcast at 08:00 local in each. The broadcast's
    /// wakes and opens follow each phone and user, not one instant, and the report names
    /// what made the busiest minute and second.
    @Test func aBroadcastPerZoneIsNoHerdEither() throws {
        var s = try Fixtures.scenario("scenarios/capacity.json").scaled(by: 0.01)
        s.expect = []
        var world = World(scenario: s)
        world.runToEnd()
        let r = try world.report().report
        let peak = r.lookup("backend.load.peakSecond.requests")?.doubleValue ?? -1
        let p99 = r.lookup("backend.requestsPerSecond.p99")?.doubleValue ?? -1
        #expect(p99 >= 1)
        #expect(peak <= Self.herdLimit * p99, "busiest second \(peak) req/s against a p99 of \(p99)")
        for key in ["backend.load.peak.cause", "backend.load.peakSecond.cause"] {
            let cause = r.lookup(key)?.stringValue ?? ""
            #expect(cause.count > 0, "\(key) names a cause")
        }
    }
}
