import Testing
import SimKernel
import Scenario
import Reports
@testable import Simulation

/// When the OS suspends the app after its background work (docs/model.md): iOS as soon as
/// the last background task ends (`BGTask.h`), `ios.suspensionDelay` later when set;
/// Android caches the process 1 s after the Worker returned, whatever `ios` says.
@Suite struct SuspensionDelayTests {
    /// One phone of `platform` that refreshes every launch it gets (requests of 1 s round
    /// trip), no opens, with `ios` as the cohort's `ios` section.
    static func scenario(platform: String, ios: String) throws -> Scenario {
        try Fixtures.decode("""
        {"name": "suspension", "duration": "12h", "seed": 1,
         "fleet": [{"cohort": "c", "count": 1, "platform": "\(platform)", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0, "screenSessionsPerDay": 0}, "lastTestDaysAgo": 10,
                    "network": {"latency": "1s", "failureRate": 0, "offlineSpellsPerDay": 0},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "android": {"motionEventsPerDay": 0, "alarmClock": {"share": 0}},
                    "ios": {"earlyExpirationRate": 0, "launchPolicy": {"opportunityGap": "1m", "baseAcceptance": 1}\(ios)}}],
         "backend": {"serviceTime": "0s"}}
        """)
    }

    /// For each task the refresh completed, the time from its completion to the app's next
    /// suspension in the trace.
    static func delays(_ s: Scenario) -> [SimDuration] {
        var world = World(scenario: s, traceDevice: 0)
        world.runToEnd()
        var completedAt: SimTime? = nil
        var delays: [SimDuration] = []
        for (time, line) in world.trace {
            if line.contains("-> completeTask") { completedAt = time }
            if line.contains("app suspended"), let at = completedAt {
                delays.append(time - at)
                completedAt = nil
            }
        }
        return delays
    }

    @Test func anIPhoneIsSuspendedAsSoonAsTheTaskCompletes() throws {
        let delays = Self.delays(try Self.scenario(platform: "ios", ios: ""))
        #expect(!delays.isEmpty)
        #expect(delays.allSatisfy { $0 == .zero }, "\(delays)")
    }

    @Test func theKeyDelaysTheSuspension() throws {
        let delays = Self.delays(try Self.scenario(platform: "ios", ios: #", "suspensionDelay": "1s""#))
        #expect(!delays.isEmpty)
        #expect(delays.allSatisfy { $0 == .seconds(1) }, "\(delays)")
    }

    @Test func androidKeepsItsOwnCacheDelay() throws {
        let delays = Self.delays(try Self.scenario(platform: "android", ios: #", "suspensionDelay": "5s""#))
        #expect(!delays.isEmpty)
        #expect(delays.allSatisfy { $0 == AndroidHost.cachedAfterWork && $0 == .seconds(1) }, "\(delays)")
    }

    /// docs/model.md's step-sync finding: the sync rides the refresh task on iOS, and a
    /// refresh that completes before the upload's answer gets the app suspended then, so
    /// the upload is cut; `"1s"` lets the quick ones finish. 20 iPhones, 2 days, urban network.
    @Test func uploadsInFlightAtATasksEndAreCutMoreOftenAtZeroSeconds() throws {
        func cut(_ ios: String) throws -> Int64 {
            let s = try Fixtures.decode("""
            {"name": "cut", "duration": "2d", "seed": 5,
             "fleet": [{"cohort": "c", "count": 20, "platform": "ios", "features": ["refresh", "stepSync"], "signedIn": 1,
                        "usage": {"appOpensPerDay": 1}, "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                        "ios": {"launchPolicy": {"opportunityGap": "10m", "baseAcceptance": 1}\(ios)}}]}
            """)
            var world = World(scenario: s)
            world.runToEnd()
            return try world.report().report.lookup("stepSync.uploadsCutBySuspension")?.intValue ?? -1
        }
        let atOnce = try cut(""), oneSecond = try cut(#", "suspensionDelay": "1s""#)
        #expect(atOnce > 0 && oneSecond >= 0 && atOnce > oneSecond, "cut at 0 s \(atOnce), at 1 s \(oneSecond)")
    }
}
