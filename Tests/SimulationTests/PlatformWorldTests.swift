import Testing
import SimKernel
import Scenario
@testable import Simulation

/// The platform models in the world: issue 3's "done when" rows, judged on whole runs.
@Suite struct PlatformWorldTests {
    /// iOS (`docs/platform-facts.md` F): Low Power Mode and Background App Refresh off give zero
    /// refresh launches; the same users with both on get launches.
    @Test func lowPowerModeOrBackgroundAppRefreshOffGetZeroLaunches() throws {
        let cohort = #""platform": "ios", "features": ["refresh"], "usage": {"appOpensPerDay": 3}"#
        var world = World(scenario: try Fixtures.decode("""
        {"name": "ios-rules", "duration": "3d", "seed": 5,
         "fleet": [{"cohort": "lpm", "count": 40, \(cohort), "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 1}},
                   {"cohort": "bar-off", "count": 40, \(cohort), "settings": {"backgroundAppRefresh": 0, "lowPowerMode": 0}},
                   {"cohort": "on", "count": 40, \(cohort), "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0}}]}
        """))
        world.runToEnd()
        let launches = world.core.devices.map { Int($0.launches) }
        #expect(launches[0..<40].reduce(0, +) == 0)
        #expect(launches[40..<80].reduce(0, +) == 0)
        #expect(launches[80..<120].reduce(0, +) > 40)
        #expect(world.core.metrics.launchesHeldBack > 0)
        #expect(world.core.metrics.submitUnavailable >= 40)
    }

    /// A force-quit app gets no background launch until the user opens it again
    /// (`docs/platform-facts.md` F), read from each device's own story.
    @Test func aForceQuitAppGetsNoLaunchUntilReopened() throws {
        let scenario = try Fixtures.decode("""
        {"name": "force-quit", "duration": "4d", "seed": 8,
         "fleet": [{"cohort": "quitters", "count": 6, "platform": "ios", "features": ["refresh"],
                    "usage": {"appOpensPerDay": 1, "forceQuitProbability": 1},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "ios": {"launchPolicy": {"opportunityGap": "10m", "baseAcceptance": 1}}}]}
        """)
        var quits = 0, blocked = 0, launchesAfterReopen = 0
        for device in 0..<6 {
            var world = World(scenario: scenario, traceDevice: device)
            world.runToEnd()
            var quit = false
            for (_, line) in world.trace {
                if line.contains("user force-quits the app") { quit = true; quits += 1 }
                if line.contains("user opens the app") { quit = false }
                if line.contains("held back (the user force-quit") { blocked += 1 }
                if line.contains("BGAppRefreshTask") && line.contains("launched") {
                    #expect(!quit, "device \(device): \(line)")
                    if quits > 0 { launchesAfterReopen += 1 }
                }
            }
        }
        #expect(quits > 3)
        #expect(blocked > 0)
        #expect(launchesAfterReopen > 0)
    }

    /// One LTE refresh costs promotion + transfer + tail (`docs/platform-facts.md` I) plus the
    /// CPU while the task runs: a single history request with a 1 s round trip and a
    /// 1 s task: 0.26 s × 1.21 W + 1 s × 1.2 W + 10 s × 1.06 W + 1 s × 0.15 A × 3.85 V
    /// = 12.6921 J = 0.915736 mAh at 3.85 V, which the report's `energyPerRefresh` shows.
    @Test func theReportsPerRefreshEnergyMatchesTheFormula() throws {
        var world = World(scenario: try Fixtures.decode("""
        {"name": "energy", "duration": "5h", "seed": 1,
         "fleet": [{"cohort": "lte", "count": 1, "platform": "ios", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0}, "lastTestDaysAgo": 10,
                    "network": {"latency": "1s", "failureRate": 0, "offlineSpellsPerDay": 0, "homeWiFi": 0},
                    "settings": {"backgroundAppRefresh": 1, "lowPowerMode": 0},
                    "battery": {"capacityMah": 3300, "charging": "rarely", "initialPercent": 90},
                    "ios": {"earlyExpirationRate": 0, "launchPolicy": {"opportunityGap": "1m", "baseAcceptance": 1}}}],
         "backend": {"serviceTime": "0s"}}
        """))
        world.runToEnd()
        // One refresh: its energy is the distribution's exact mean (a sum kept to 10⁻¹²).
        #expect(world.features.refresh.metrics.energy[0].count == 1)
        let perRefresh = try #require(world.features.refresh.metrics.energy[0].mAh.mean)
        #expect(abs(perRefresh - 0.915736) < 0.000001)
        let report = try world.report().report
        let p50 = try #require(report.lookup("battery.lte.energyPerRefresh.mAh.p50")?.doubleValue)
        #expect(abs(p50 - 0.9157) < 0.00005)
    }

    /// An Android device left stationary, unplugged, with its screen off runs its
    /// WorkManager refresh only in Doze maintenance windows once Doze has engaged
    /// (`docs/platform-facts.md` A, D), and the report shows the deferrals. No alarm clock: one
    /// coming within 30 min makes Doze active (`MIN_TIME_TO_ALARM`), which is not this test.
    @Test func aStationaryAndroidDeviceRunsItsRefreshOnlyInMaintenanceWindows() throws {
        let scenario = try Fixtures.decode("""
        {"name": "doze", "duration": "2d", "seed": 2,
         "fleet": [{"cohort": "still", "count": 3, "platform": "android", "features": ["refresh"], "signedIn": 1,
                    "usage": {"appOpensPerDay": 0, "screenSessionsPerDay": 0},
                    "android": {"motionEventsPerDay": 0, "alarmClock": {"share": 0}},
                    "network": {"offlineSpellsPerDay": 0, "failureRate": 0},
                    "settings": {"lowPowerMode": 0},
                    "battery": {"capacityMah": 1000000, "charging": "rarely", "initialPercent": 100}}]}
        """)
        var runs = 0
        for device in 0..<3 {
            var world = World(scenario: scenario, traceDevice: device)
            world.runToEnd()
            var lastDoze = ""
            for (time, line) in world.trace {
                if line.contains("Doze: ") { lastDoze = line }
                if line.contains("WorkManager: refresh runs"), time >= SimTime.zero + .hours(1) {
                    runs += 1
                    #expect(lastDoze.hasSuffix("idleMaintenance"), "device \(device): \(line) after \(lastDoze)")
                }
            }
            let report = try world.report().report
            #expect((report.lookup("scheduling.dozeDeferrals")?.doubleValue ?? 0) > 0)
            #expect((report.lookup("scheduling.dozeDeferral.p50")?.doubleValue ?? 0) > 0)
        }
        #expect(runs >= 6)
    }
}
