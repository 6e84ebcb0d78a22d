import Testing
import Scenario
@testable import Simulation

/// Quiet hours on DST nights, judged by the oracle's own clock: quiet hours that lie in,
/// or end in, a skipped or a repeated hour (Berlin's 02:00-03:00, Lord Howe's 30-minute
/// change at 02:00, Santiago's and Beirut's changes at midnight), both nights of each
/// zone. The correct logic holds pushes through them (some are held) with no violation of
/// any kind: `pushDisplayedInQuietHours`, `pushHeldOutsideQuietHours` (the hold, and the
/// release at exactly the end held until) and `normalNotBatched` among them.
@Suite struct QuietHoursDSTTests {
    struct Night: Sendable, CustomTestStringConvertible {
        var zone: String
        var start: String
        var quietHours: [String]
        var testDescription: String { "\(zone) \(start) \(quietHours)" }
    }

    static let nights: [Night] = [
        Night(zone: "Europe/Berlin", start: "2026-03-28T00:00:00Z", quietHours: ["01:30-02:30", "02:00-03:00", "22:00-02:30"]),
        Night(zone: "Europe/Berlin", start: "2026-10-24T00:00:00Z", quietHours: ["01:30-02:30", "02:00-03:00", "22:00-02:30"]),
        Night(zone: "Australia/Lord_Howe", start: "2026-04-04T00:00:00Z", quietHours: ["01:30-02:00", "01:45-02:15", "22:00-01:45"]),
        Night(zone: "Australia/Lord_Howe", start: "2026-10-03T00:00:00Z", quietHours: ["01:45-02:15", "02:00-02:30", "22:00-02:15"]),
        Night(zone: "America/Santiago", start: "2026-04-04T00:00:00Z", quietHours: ["23:30-00:30", "23:00-00:00", "22:00-23:30"]),
        Night(zone: "America/Santiago", start: "2026-09-05T00:00:00Z", quietHours: ["23:30-00:30", "00:00-01:00", "00:15-00:45"]),
        Night(zone: "Asia/Beirut", start: "2026-03-28T00:00:00Z", quietHours: ["23:30-00:30", "00:00-01:00", "00:15-00:45"]),
        Night(zone: "Asia/Beirut", start: "2026-10-24T00:00:00Z", quietHours: ["23:30-00:30", "23:00-00:00", "22:00-23:30"]),
    ]

    static func scenario(_ night: Night, seed: UInt64) throws -> Scenario {
        let quiet = night.quietHours.map { "\"\($0)\": 1" }.joined(separator: ", ")
        return try Fixtures.decode("""
        {"name": "quiet-hours-dst", "seed": \(seed), "start": "\(night.start)", "duration": "2d",
         "fleet": [{"cohort": "night", "count": 60, "platform": "ios", "features": ["push"],
                    "timeZones": {"\(night.zone)": 1}, "usage": {"appOpensPerDay": 0.5},
                    "settings": {"notificationPermission": {"authorized": 1}},
                    "push": {"quietHours": {\(quiet)},
                             "sources": {"teacherFeedback": {"perDay": 24}, "challenge": {"perDay": 8, "priority": {"high": 1}}}}}]}
        """)
    }

    @Test(arguments: nights) func correctLogicHoldsThroughTheChangeWithNoViolation(_ night: Night) throws {
        for seed in UInt64(1)...2 {
            var world = World(scenario: try Self.scenario(night, seed: seed))
            world.runToEnd()
            #expect(world.features.push.metrics.held > 0, "no push was held")
            ReadableFailures.expectNoViolation(world)
        }
    }
}
