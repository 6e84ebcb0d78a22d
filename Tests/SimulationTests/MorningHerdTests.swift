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

    /// Four US zones of iPhones and Android phones with a high-priority broadcast at 08:00
    /// local in each: the broadcast's opens follow the users' reactions, not one instant.
    @Test func aBroadcastPerZoneIsNoHerdEither() throws {
        let zones = [("America/New_York", 13), ("America/Chicago", 14), ("America/Denver", 15), ("America/Los_Angeles", 16)]
        let cohorts = zones.flatMap { zone, _ in
            ["ios", "android"].map { platform in
                """
                {"cohort": "\(zone)-\(platform)", "count": 250, "platform": "\(platform)", "timeZones": {"\(zone)": 1},
                 "battery": {"charging": "overnight"}, "usage": {"appOpensPerDay": 1.5}}
                """
            }
        }
        // 2026-03-02 is EST/CST/MST/PST: 08:00 local is 13:00-16:00 UTC.
        let broadcasts = zones.flatMap { zone, utcHour in
            ["ios", "android"].map { platform in
                "{\"at\": \"\(utcHour)h\", \"priority\": \"high\", \"category\": \"announcements\", \"cohort\": \"\(zone)-\(platform)\"}"
            }
        }
        let s = try Fixtures.decode("""
        {"name": "us", "seed": 3, "start": "2026-03-02T00:00:00Z", "duration": "1d",
         "fleet": [\(cohorts.joined(separator: ","))],
         "broadcasts": [\(broadcasts.joined(separator: ","))]}
        """)
        let (peak, p99) = try Self.busiestSecondOverP99(s)
        #expect(p99 >= 1)
        #expect(peak <= Self.herdLimit * p99, "busiest second \(peak) req/s against a p99 of \(p99)")
    }
}
