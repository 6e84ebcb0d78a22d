import Testing
import SimKernel
import AppLogic
import Platform
import Scenario
@testable import Simulation

/// A bug planted in the logic's calendar or in its token expiry is caught by a judge that
/// keeps its own truth (docs/architecture.md, "Which data flows where": the oracle), and
/// the correct logic passes the same runs.
@Suite struct PlantedBugTests {
    static func count(_ world: World, _ kind: ViolationKind) -> UInt64 {
        world.core.oracle.counts[ViolationKind.allCases.firstIndex(of: kind)!]
    }

    static func run(_ scenario: Scenario, variants: [String]) -> World {
        var s = scenario
        s.logic.variants = variants
        var world = World(scenario: s)
        world.runToEnd()
        return world
    }

    /// The logic's local day read with the standard offset (`stepSync.localDayIgnoresDST`):
    /// the steps judge, whose dates and truth come from the oracle's own zone arithmetic,
    /// sees the short first date of each read.
    @Test func aLocalDayOffByTheDSTHourIsCaughtByTheStepsJudge() throws {
        let race = try Fixtures.scenario("scenarios/races/local-day-ignores-dst.json")
        let buggy = Self.run(race, variants: ["stepSync.localDayIgnoresDST"])
        #expect(Self.count(buggy, .stepsNeverSynced) > 0)
        ReadableFailures.expectNoViolation(Self.run(race, variants: []))
    }

    /// A fleet whose unread count changes without an alert (low-priority notifications get
    /// a badge-only push) while APNs answers 503 to 60 % of the sends.
    static func unreliableAPNs() throws -> Scenario {
        try Fixtures.decode("""
        {"name": "planted-expiry", "seed": 1, "duration": "1d",
         "fleet": [{"cohort": "c", "count": 100, "platform": "ios", "features": ["push"],
                    "timeZones": {"America/New_York": 1}, "usage": {"appOpensPerDay": 0.1},
                    "settings": {"notificationPermission": {"authorized": 1}},
                    "push": {"quietHours": {"none": 1},
                             "sources": {"assignmentDue": {"perDay": 8, "priority": {"normal": 0.5, "low": 0.5}}}}}],
         "faults": [{"kind": "pushProviderErrors", "at": "0s", "duration": "1d", "provider": "apns", "status": 503, "rate": 0.6}]}
        """)
    }

    /// The logic expires a token whose badge push failed softly (`push.expireOnServerError`):
    /// besides the expiry judge, the composition judge still expects the badge-only push of
    /// the next change, since its token truth comes from what APNs answered (no 410), not
    /// from the registry the logic wrote.
    @Test func aTokenWronglyExpiredStaysJudgedForItsBadgePushes() throws {
        let scenario = try Self.unreliableAPNs()
        let buggy = Self.run(scenario, variants: ["push.expireOnServerError"])
        #expect(Self.count(buggy, .tokenExpiredWithoutCause) > 0)
        #expect(Self.count(buggy, .unreadChangeNotPushed) > 0)
        ReadableFailures.expectNoViolation(Self.run(scenario, variants: []))
    }

    /// The logic expires a token whose badge push failed softly (`push.expireOnServerError`)
    /// and sends nothing to it until the app's next launch (0.02 opens a day): the weekly
    /// validation judge, whose token truth comes from what APNs answered (no 410), not from
    /// the registry the logic wrote, sees each such token go unvalidated past 8 days.
    @Test func aTokenWronglyExpiredStaysJudgedForItsWeeklyValidation() throws {
        let scenario = try Fixtures.decode("""
        {"name": "planted-expiry-validation", "seed": 1, "duration": "10d",
         "fleet": [{"cohort": "c", "count": 20, "platform": "ios", "features": ["push"],
                    "timeZones": {"America/New_York": 1}, "usage": {"appOpensPerDay": 0.02},
                    "settings": {"notificationPermission": {"authorized": 1}},
                    "push": {"quietHours": {"none": 1},
                             "sources": {"assignmentDue": {"perDay": 2, "priority": {"normal": 0.5, "low": 0.5}}}}}],
         "faults": [{"kind": "pushProviderErrors", "at": "0s", "duration": "1d", "provider": "apns", "status": 503, "rate": 0.6}]}
        """)
        let buggy = Self.run(scenario, variants: ["push.expireOnServerError"])
        #expect(Self.count(buggy, .tokenExpiredWithoutCause) > 0)
        #expect(Self.count(buggy, .tokenValidationLate) > 0)
        ReadableFailures.expectNoViolation(Self.run(scenario, variants: []))
    }

    /// The judge's own true steps (the home zone read through ``OracleZone``) are the
    /// model's on the correct calendar, across a spring-forward day (23 h), a fall-back day
    /// (25 h), a half-hour zone and a 45-minute one: two codes, one answer.
    @Test(arguments: [("America/New_York", "2026-03-07T00:00:00Z"), ("America/New_York", "2026-10-31T00:00:00Z"),
                      ("Australia/Adelaide", "2026-04-04T00:00:00Z"), ("Asia/Kathmandu", "2026-06-01T00:00:00Z")])
    func theJudgesTrueStepsAreTheModelsOnTheCorrectCalendar(_ zone: String, _ start: String) throws {
        var world = World(scenario: try Fixtures.decode("""
        {"name": "truth", "seed": 3, "start": "\(start)", "duration": "3d",
         "fleet": [{"cohort": "c", "count": 4, "platform": "ios", "features": ["stepSync"], "timeZones": {"\(zone)": 1}}]}
        """))
        let health = world.features.stepSync.health
        let home = world.core.calendars[Int(world.core.devices[0].homeTimeZone)]
        var compared = 0
        for i in 0..<4 {
            // Spans of 1 to 71 hours from odd minutes, across both days around the change.
            for (from, hours) in [(0, 71), (7 * 60 + 13, 25), (23 * 60 + 47, 23), (26 * 60 + 3, 1), (47 * 60 + 59, 24)] {
                let a = SimTime.zero + .minutes(Int64(from)), b = a + .hours(Int64(hours))
                let model = health.trueSteps(user: health.rhythm.user(Int(world.core.globalID(i))), from: a, to: b, home: home,
                                             startUnixSeconds: world.core.startUnixSeconds)
                #expect(world.core.oracleTrueSteps(i, health, from: a, to: b) == model, "\(zone) device \(i) from \(from) min for \(hours) h")
                if model > 0 { compared += 1 }
            }
        }
        #expect(compared > 10)
    }
}
